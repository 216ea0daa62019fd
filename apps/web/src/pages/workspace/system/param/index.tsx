import { ProCard } from '@ant-design/pro-components';
import HolidayPanel from './components/HolidayPanel';
import ParameterTable from './components/ParameterTable';

/**
 * 系统参数 (workspace /system/param, admin; spec §7 "common param"): the typed parameters with defaults and ranges,
 * and the holiday calendar that working-day deadlines count with.
 */
export default function SystemParamPage() {
  return (
    <ProCard
      className="coalx-section-card"
      tabs={{
        items: [
          { key: 'params', label: '系统参数', children: <ParameterTable /> },
          { key: 'holidays', label: '节假日', children: <HolidayPanel /> },
        ],
      }}
    />
  );
}
