// 行情's ECharts: the shared core with the bar chart (volume) and the candlestick chart.
import { CandlestickChart } from 'echarts/charts';
import { echarts } from '@/components/delivery/echarts';

echarts.use([CandlestickChart]);

export { echarts };
