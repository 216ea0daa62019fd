import { Collapse, Empty } from 'antd';
import type { DispatchView } from '@/services/delivery';
import TruckActions from './TruckActions';
import { DispatchStatusTag, LossCell, Tons } from './parts';
import { truckDetails } from './truck-columns';

/**
 * The trucks as cards, for a phone: plate and state on top, the tons in two columns, the actions on their own
 * line (always on the screen), the rest (driver, tickets, sign-for) folded under 更多信息.
 */
export default function TruckCards({ trucks, empty, onChanged }: { trucks: DispatchView[]; empty: string; onChanged: () => void }) {
  if (trucks.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <div className="coalx-truck-cards">
      {trucks.map((r) => (
        <div key={r.id} className="coalx-truck-card" data-testid="truck-card">
          <div className="coalx-truck-card-head">
            <strong className="coalx-truck-card-plate">{r.plateNo}</strong>
            <DispatchStatusTag status={r.status} />
          </div>
          <div className="coalx-truck-card-sub coalx-num">
            {r.dispatchNo} · {r.driverName}
          </div>
          <dl className="coalx-truck-card-tons">
            <div>
              <dt>计划(吨)</dt>
              <dd>
                <Tons kg={r.plannedKg} />
              </dd>
            </div>
            <div>
              <dt>装车(吨)</dt>
              <dd>
                <Tons kg={r.loadedNetKg} />
              </dd>
            </div>
            <div>
              <dt>到货(吨)</dt>
              <dd>
                <Tons kg={r.arrivedNetKg} />
              </dd>
            </div>
            <div>
              <dt>签收(吨)</dt>
              <dd>
                <Tons kg={r.signedKg} />
              </dd>
            </div>
            <div>
              <dt>途损(吨)</dt>
              <dd>
                <LossCell truck={r} />
              </dd>
            </div>
          </dl>
          <TruckActions truck={r} onChanged={onChanged} print />
          <Collapse
            ghost
            size="small"
            items={[
              {
                key: 'more',
                label: '更多信息',
                children: (
                  <dl className="coalx-truck-card-details">
                    {truckDetails(r).map((d) => (
                      <div key={d.label}>
                        <dt>{d.label}</dt>
                        <dd>{d.value}</dd>
                      </div>
                    ))}
                  </dl>
                ),
              },
            ]}
          />
        </div>
      ))}
    </div>
  );
}
