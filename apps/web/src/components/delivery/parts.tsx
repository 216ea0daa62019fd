import { Tag, Tooltip } from 'antd';
import { DISPATCH_STATUS, QUALITY_REPORT_STATUS, VEHICLE_TYPES, formatTons } from '@coalx/shared';
import type { DispatchView } from '@/services/delivery';
import './delivery.css';

const STATUS_COLORS: Record<string, string> = {
  dispatched: 'blue',
  loaded: 'cyan',
  arrived: 'orange',
  signed: 'green',
  disputed: 'red',
  refused: 'default',
  cancelled: 'default',
};

export function DispatchStatusTag({ status }: { status: string }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{(DISPATCH_STATUS as Record<string, string>)[status] ?? status}</Tag>;
}

const REPORT_COLORS: Record<string, string> = { submitted: 'blue', accepted: 'green', disputed: 'red' };
export function ReportStatusTag({ status }: { status: string }) {
  return <Tag color={REPORT_COLORS[status] ?? 'default'}>{(QUALITY_REPORT_STATUS as Record<string, string>)[status] ?? status}</Tag>;
}

/** Tons with two decimals, no unit (the column header says 吨); '-' when not weighed yet. */
export function Tons({ kg }: { kg: number | null | undefined }) {
  return <span className="coalx-num">{kg === null || kg === undefined ? '-' : formatTons(kg, false)}</span>;
}

/** 途损: the loss in tons, red beyond the contract's tolerance; a gain shows as 涨吨. */
export function LossCell({ truck }: { truck: Pick<DispatchView, 'lossKg' | 'lossExceeded' | 'transitLossPct' | 'loadedNetKg'> }) {
  if (truck.lossKg === null) return <span>-</span>;
  if (truck.lossKg < 0) return <span className="coalx-num">涨 {formatTons(-truck.lossKg, false)}</span>;
  const pct = truck.loadedNetKg ? ((truck.lossKg / truck.loadedNetKg) * 100).toFixed(2) : '0.00';
  return (
    <span className="coalx-num">
      {formatTons(truck.lossKg, false)}
      {truck.lossExceeded ? (
        <Tooltip title={`途损 ${pct}%，超过合同约定的合理途损 ${truck.transitLossPct}%`}>
          <Tag color="red" className="coalx-loss-tag">
            超途损
          </Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}

/** Vehicle types as the drivers' register names them. */
export const vehicleTypeText = (key: string) => (VEHICLE_TYPES as Record<string, string>)[key] ?? key;

export const SIDE_TEXT = { seller: '卖方', buyer: '买方' } as const;
