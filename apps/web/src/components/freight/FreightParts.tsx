import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ProForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Descriptions, Drawer, Spin, Table, Tag, message } from 'antd';
import { FREIGHT_STATUS, formatFen, formatTons, type FreightStatus } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Money from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import Upload from '@/components/Upload';
import { usePrivateFileUrl } from '@/services/file';
import { FREIGHT_KEYS, cancelFreight, confirmFreight, getFreight, payFreight, type FreightLine, type FreightStatementSummary } from '@/services/freight';

const STATUS_COLOR: Record<FreightStatus, string> = { draft: 'default', confirmed: 'processing', paid: 'success', cancelled: 'error' };
const ACCEPT = '.jpg,.jpeg,.png,.pdf';

export function FreightStatusTag({ status }: { status: FreightStatus }) {
  return <Tag color={STATUS_COLOR[status]}>{FREIGHT_STATUS[status]}</Tag>;
}

const yuanPerTon = (fen: number) => `${formatFen(fen)} 元/吨`;

/** Each truck's line with where its numbers came from: the dispatch, the order, the weights and the loss. */
export function FreightLinesTable({ lines, selected, onSelect }: { lines: FreightLine[]; selected?: number[]; onSelect?: (ids: number[]) => void }) {
  return (
    <Table<FreightLine>
      rowKey="dispatchId"
      rowSelection={onSelect ? { selectedRowKeys: selected, onChange: (keys) => onSelect(keys.map(Number)), columnWidth: 40 } : undefined}
      size="small"
      pagination={false}
      tableLayout="fixed"
      scroll={{ x: 1200 }}
      dataSource={lines}
      columns={[
        { title: '派车单号', dataIndex: 'dispatchNo', width: 135, fixed: 'left', render: (v: string) => <span className="coalx-num">{v}</span> },
        { title: '订单编号', dataIndex: 'orderNo', width: 135, render: (v: string) => <span className="coalx-num">{v}</span> },
        { title: '车牌 / 司机', key: 'truck', width: 125, render: (_, l) => `${l.plateNo} ${l.driverName}` },
        { title: '签收时间', dataIndex: 'signedAt', width: 145 },
        { title: '装车 (吨)', dataIndex: 'loadedNetKg', width: 80, align: 'right', render: (v: number) => formatTons(v, false) },
        { title: '签收 (吨)', dataIndex: 'signedKg', width: 80, align: 'right', render: (v: number) => formatTons(v, false) },
        {
          title: '超途损 (吨)',
          key: 'loss',
          width: 90,
          align: 'right',
          render: (_, l) => (
            <span title={`途损 ${formatTons(l.lossKg)}，合理途损 ${l.transitLossPct}%`}>{l.excessLossKg > 0 ? formatTons(l.excessLossKg, false) : '-'}</span>
          ),
        },
        { title: '运价 (元/吨)', dataIndex: 'rateFen', width: 95, align: 'right', render: (v: number) => formatFen(v) },
        { title: '运费 (¥)', dataIndex: 'freightFen', width: 110, align: 'right', render: (v: number) => <Money fen={v} /> },
        {
          title: '途损扣款 (¥)',
          dataIndex: 'lossDeductionFen',
          width: 95,
          align: 'right',
          render: (v: number, l) => (v > 0 ? <span title={`${formatTons(l.excessLossKg)} × 订单价 ${yuanPerTon(l.orderPriceFen)}`}>-{formatFen(v)}</span> : '-'),
        },
        { title: '小计 (¥)', dataIndex: 'lineFen', width: 110, align: 'right', render: (v: number) => <Money fen={v} strong /> },
      ]}
    />
  );
}

/** The money of a statement or a preview: subtotal, 9 % VAT and the total. */
export function FreightMoneyLine({ money }: { money: { trucks: number; signedKg: number; freightFen: number; lossDeductionFen: number; subtotalFen: number; taxFen: number; totalFen: number } }) {
  return (
    <Descriptions
      size="small"
      column={4}
      bordered
      items={[
        { key: 'trucks', label: '车数 / 签收量', children: `${money.trucks} 车 / ${formatTons(money.signedKg)}` },
        { key: 'freight', label: '运费', children: <Money fen={money.freightFen} /> },
        { key: 'loss', label: '超途损扣款', children: money.lossDeductionFen > 0 ? `-${formatFen(money.lossDeductionFen)}` : '0.00' },
        { key: 'subtotal', label: '不含税金额', children: <Money fen={money.subtotalFen} /> },
        { key: 'tax', label: '增值税 (9%)', children: <Money fen={money.taxFen} /> },
        { key: 'total', label: '价税合计', span: 3, children: <Money fen={money.totalFen} strong /> },
      ]}
    />
  );
}

/** A private file of the statement: a short-lived signed link (services/file.ts), which the browser downloads. */
function FileLink({ file }: { file: { url: string; name: string } | null }) {
  const href = usePrivateFileUrl(file?.url);
  if (!file) return <>-</>;
  return (
    <a href={href || undefined} target="_blank" rel="noreferrer">
      {file.name || '查看文件'}
    </a>
  );
}

/** The detail drawer: the statement, its files, and every truck's line. */
export function FreightDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useQuery({ queryKey: FREIGHT_KEYS.detail(id ?? 0), queryFn: () => getFreight(id!), enabled: id !== null });
  const d = detail.data;
  return (
    <Drawer title={d ? `运费结算单 ${d.statementNo}` : '运费结算单'} open={id !== null} onClose={onClose} width={1280} destroyOnHidden>
      {!d ? (
        <Spin />
      ) : (
        <div data-testid="freight-detail">
          <Descriptions
            size="small"
            column={3}
            style={{ marginBottom: 16 }}
            items={[
              { key: 'status', label: '状态', children: <FreightStatusTag status={d.status} /> },
              { key: 'carrier', label: '承运方', children: `${d.carrierName}（${d.carrierKindText}）` },
              { key: 'period', label: '结算期间', children: `${d.periodFrom} 至 ${d.periodTo}` },
              { key: 'enterprise', label: '运输企业', children: d.enterpriseName },
              { key: 'rate', label: '运价', children: yuanPerTon(d.rateFen) },
              { key: 'orders', label: '订单', children: d.orderNos.join('、') },
              { key: 'created', label: '制单', children: `${d.createdBy} ${d.createdAt}` },
              { key: 'confirmed', label: '承运方确认', children: d.confirmedAt ? `${d.carrierSigner} ${d.confirmedAt}` : '未确认' },
              { key: 'copy', label: '承运方签字件', children: <FileLink file={d.signedCopy} /> },
              { key: 'paid', label: '付款时间', children: d.paidAt ?? '未付款' },
              { key: 'voucher', label: '付款凭证', children: <FileLink file={d.voucher} /> },
              { key: 'note', label: '备注', children: d.note || '-' },
            ]}
          />
          <FreightMoneyLine money={d} />
          <div style={{ height: 16 }} />
          <FreightLinesTable lines={d.lines} />
        </div>
      )}
    </Drawer>
  );
}

/** 确认 (the carrier's signed copy), 付款 (the voucher, after the money is confirmed) and 作废 of one statement. */
export function FreightActionModals({ statement, action, onClose, onDone }: { statement: FreightStatementSummary | null; action: 'confirm' | 'pay' | null; onClose: () => void; onDone: () => void }) {
  const client = useQueryClient();
  const done = (text: string) => {
    message.success(text);
    void client.invalidateQueries({ queryKey: FREIGHT_KEYS.all });
    onDone();
    return true;
  };
  const s = statement;
  return (
    <>
      <GuardedModalForm<{ signedCopy: string; carrierSigner: string }>
        title={s ? `承运方确认：${s.statementNo}` : '承运方确认'}
        open={action === 'confirm' && s !== null}
        onOpenChange={(o) => !o && onClose()}
        width={520}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '登记确认', resetText: '取消' } }}
        onFinish={async (v) => {
          try {
            await confirmFreight(s!.id, { signedCopy: v.signedCopy, carrierSigner: v.carrierSigner.trim() });
            return done('承运方已确认');
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        {s ? (
          <p>
            {s.carrierName}，{s.trucks} 车，价税合计 <Money fen={s.totalFen} strong />。承运方不是平台用户：请上传承运方签字（盖章）的结算单。
          </p>
        ) : null}
        <ProFormText name="carrierSigner" label="承运方签字人" rules={[{ required: true, min: 2, max: 20, message: '请输入承运方签字人（2–20 字）' }]} />
        <ProForm.Item name="signedCopy" label="承运方签字确认件" rules={[{ required: true, message: '请上传承运方签字确认件' }]}>
          <Upload visibility="private" accept={ACCEPT} listType="text" />
        </ProForm.Item>
      </GuardedModalForm>
      <GuardedModalForm<{ voucher: string; note?: string }>
        title={s ? `运费付款：${s.statementNo}` : '运费付款'}
        open={action === 'pay' && s !== null}
        onOpenChange={(o) => !o && onClose()}
        width={520}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '登记付款', resetText: '取消' } }}
        onFinish={async (v) => {
          const ok = await confirmMoney({
            title: '确认运费付款',
            rows: [
              { label: '承运方', value: s!.carrierName },
              { label: '结算单号', value: s!.statementNo },
              { label: '不含税金额', value: <Money fen={s!.subtotalFen} /> },
              { label: '增值税 (9%)', value: <Money fen={s!.taxFen} /> },
              { label: '价税合计', value: <Money fen={s!.totalFen} strong />, strong: true },
            ],
            next: '运费由本企业在平台外转账给承运方；登记后结算单为“已付款”，平台账户资金不变动。',
            okText: '确认已付款',
          });
          if (!ok) return false;
          try {
            await payFreight(s!.id, { voucher: v.voucher, note: v.note?.trim() || undefined });
            return done('已登记付款');
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        {s ? (
          <p>
            应付 {s.carrierName} 价税合计 <Money fen={s.totalFen} strong />。
          </p>
        ) : null}
        <ProForm.Item name="voucher" label="付款凭证" rules={[{ required: true, message: '请上传付款凭证' }]}>
          <Upload visibility="private" accept={ACCEPT} listType="text" />
        </ProForm.Item>
        <ProFormTextArea name="note" label="备注" fieldProps={{ maxLength: 300 }} />
      </GuardedModalForm>
    </>
  );
}

export async function cancelStatement(s: FreightStatementSummary): Promise<boolean> {
  try {
    await cancelFreight(s.id);
    message.success('已作废，车辆可重新结算');
    return true;
  } catch (error) {
    message.error(errorMessage(error));
    return false;
  }
}

export function useFreightAction() {
  const [state, setState] = useState<{ statement: FreightStatementSummary; action: 'confirm' | 'pay' } | null>(null);
  return { state, open: (statement: FreightStatementSummary, action: 'confirm' | 'pay') => setState({ statement, action }), close: () => setState(null) };
}
