// The home page's ECharts core (one shared chunk), plus the bar chart and legend the tons-by-day chart uses.
import { BarChart } from 'echarts/charts';
import { LegendComponent } from 'echarts/components';
import { echarts } from '@/components/MarketIndexStrip/echarts';

echarts.use([BarChart, LegendComponent]);

export { echarts };
