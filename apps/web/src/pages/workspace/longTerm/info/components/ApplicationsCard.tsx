import { Button, Card, Table, Tag } from 'antd';
import { formatTons, monthText } from '@coalx/shared';
import { runAction } from '@/components/longTerm/LongTermParts';
import { acceptApplication, type LongTermApplication, type LongTermDetail } from '@/services/longTerm';

const STATUS_COLOR: Record<LongTermApplication['status'], string> = { pending: 'processing', accepted: 'success', declined: 'default', withdrawn: 'default' };

/**
 * 申请: the seller (and the trading centre) sees every application, a buyer its own. The seller accepts one: the
 * others are declined and the framework contract is generated for both to sign.
 */
export default function ApplicationsCard({ detail, onChange }: { detail: LongTermDetail; onChange: (next: LongTermDetail) => void }) {
  const canAccept = detail.actions.includes('accept');
  const pending = detail.applications.filter((a) => a.status === 'pending').length;
  const accept = async (a: LongTermApplication) => {
    const others = pending - 1;
    const next = await runAction(() => acceptApplication(detail.id, a.id), '已接受申请，框架合同生成后请双方签署', {
      title: `接受 ${a.buyerName} 的申请？`,
      content: (
        <div data-testid="lt-accept-confirm">
          <p>
            {a.buyerName} 成为本长协的买方：合同期 {monthText(detail.periodStart)} 至 {monthText(detail.periodEnd)}，计划总量 {formatTons(detail.plannedKg)}。
          </p>
          <p>
            {others > 0 ? `其余 ${others} 份待处理的申请将被拒绝；` : ''}系统生成长协框架合同，双方在「合同管理」签署生效后进入执行期，按月发起调运。
          </p>
        </div>
      ),
      okText: '确认接受',
    });
    if (next) onChange(next);
  };
  return (
    <Card title={`申请（${detail.applications.length}）`} size="small" className="coalx-lt-row" id="applications">
      <Table<LongTermApplication>
        data-testid="lt-applications"
        rowKey="id"
        size="small"
        pagination={false}
        tableLayout="fixed"
        dataSource={detail.applications}
        locale={{ emptyText: detail.status === 'open' ? '暂无申请' : '无申请记录' }}
        columns={[
          { title: '申请企业', dataIndex: 'buyerName', width: 260, ellipsis: true },
          { title: '申请说明', dataIndex: 'note', ellipsis: true, render: (v: string) => v || '-' },
          { title: '申请时间', dataIndex: 'createdAt', width: 170, render: (v: string) => <span className="coalx-num">{v}</span> },
          { title: '状态', dataIndex: 'status', width: 90, render: (_, a) => <Tag color={STATUS_COLOR[a.status]} className="coalx-lt-tag">{a.statusText}</Tag> },
          ...(canAccept
            ? [
                {
                  title: '操作',
                  key: 'op',
                  width: 90,
                  render: (_: unknown, a: LongTermApplication) =>
                    a.status === 'pending' ? (
                      <Button type="link" size="small" onClick={() => void accept(a)}>
                        接受
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
