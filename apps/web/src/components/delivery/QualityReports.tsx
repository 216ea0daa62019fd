import { useState } from 'react';
import { ProForm, ProFormDatePicker, ProFormDigit, ProFormSelect, ProFormText, ProFormTextArea, ProTable } from '@ant-design/pro-components';
import { Button, Modal, message } from 'antd';
import { LAB_KINDS, TESTING_BASES, UPLOAD_EXTENSIONS } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { rowDetails } from '@/components/RowDetails';
import Upload from '@/components/Upload';
import { answerQualityReport, openOrderFile, submitQualityReport, type DeliveryOrder, type QualityReportView } from '@/services/delivery';
import { ReportStatusTag, SIDE_TEXT } from './parts';

interface Values {
  lab: 'seller' | 'buyer' | 'third_party';
  labName: string;
  reportNo: string;
  qnet: number;
  mt: number;
  st: number;
  ad: number;
  vdaf: number;
  testedAt: string;
  batch?: string;
  file: string;
}

const pct = (v: number) => `${v.toFixed(2)}%`;

/** 化验单: the order's lab reports, 上传化验单 for the side whose lab counts, 确认 / 提出异议 for the other. */
export default function QualityReports({ order, reports, onChanged }: { order: DeliveryOrder; reports: QualityReportView[]; onChanged: () => void }) {
  const [uploading, setUploading] = useState(false);
  const [disputing, setDisputing] = useState<QualityReportView | null>(null);
  const basis = order.testingBasis as keyof typeof TESTING_BASES;

  const accept = (r: QualityReportView) =>
    Modal.confirm({
      title: `确认化验单 ${r.reportNo}`,
      content: `确认后，本批煤质以此化验单为准（Qnet,ar ${r.qnet} kcal/kg）。`,
      okText: '确认',
      cancelText: '取消',
      onOk: async () => {
        try {
          await answerQualityReport(r.id, { accept: true });
          message.success('已确认化验单');
          onChanged();
        } catch (error) {
          message.error(errorMessage(error));
        }
      },
    });

  return (
    <>
      <ProTable<QualityReportView>
        className="coalx-delivery-section"
        rowKey="id"
        headerTitle={`化验单（${TESTING_BASES[basis] ?? ''}）`}
        search={false}
        options={false}
        pagination={false}
        cardBordered
        tableLayout="fixed"
        dataSource={reports}
        locale={{ emptyText: '暂无化验单' }}
        toolBarRender={() =>
          order.canReport
            ? [
                <Button key="up" type="primary" onClick={() => setUploading(true)}>
                  上传化验单
                </Button>,
              ]
            : []
        }
        expandable={rowDetails<QualityReportView>((r) => [
          { label: '化验机构', value: `${r.labName}（${(LAB_KINDS as Record<string, string>)[r.lab] ?? ''}）` },
          { label: '上传方', value: `${SIDE_TEXT[r.side]} ${r.enterpriseName}` },
          { label: '上传时间', value: r.createdAt },
          { label: '答复', value: r.answeredAt ? `${r.answerNote || '无意见'}（${r.answeredAt}）` : '待对方确认' },
        ])}
        columns={[
          { title: '化验单号', dataIndex: 'reportNo', width: 130 },
          { title: '批次', dataIndex: 'batch', width: 100, render: (_, r) => r.batch || '整单' },
          { title: 'Qnet,ar (kcal/kg)', dataIndex: 'qnet', width: 120, align: 'right' },
          { title: 'Mt', dataIndex: 'mt', width: 72, align: 'right', render: (_, r) => pct(r.mt) },
          { title: 'St,d', dataIndex: 'st', width: 72, align: 'right', render: (_, r) => pct(r.st) },
          { title: 'Ad', dataIndex: 'ad', width: 76, align: 'right', render: (_, r) => pct(r.ad) },
          { title: 'Vdaf', dataIndex: 'vdaf', width: 76, align: 'right', render: (_, r) => pct(r.vdaf) },
          { title: '化验日期', dataIndex: 'testedAt', width: 100 },
          { title: '状态', dataIndex: 'status', width: 80, render: (_, r) => <ReportStatusTag status={r.status} /> },
          {
            title: '操作',
            valueType: 'option',
            width: 180,
            render: (_, r) => [
              <Button key="file" type="link" size="small" onClick={() => void openOrderFile(r.orderId, r.file.id).catch((e) => message.error(errorMessage(e)))}>
                查看文件
              </Button>,
              ...(r.canAnswer
                ? [
                    <Button key="ok" type="link" size="small" onClick={() => accept(r)}>
                      确认
                    </Button>,
                    <Button key="no" type="link" size="small" danger onClick={() => setDisputing(r)}>
                      提出异议
                    </Button>,
                  ]
                : []),
            ],
          },
        ]}
      />
      <GuardedModalForm<Values>
        title="上传化验单"
        open={uploading}
        onOpenChange={setUploading}
        width={640}
        layout="horizontal"
        labelCol={{ span: 6 }}
        wrapperCol={{ span: 16 }}
        dateFormatter="string"
        initialValues={{ lab: basis }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '提交', resetText: '取消' } }}
        onFinish={async (v) => {
          try {
            await submitQualityReport(order.id, { ...v, batch: v.batch?.trim() ?? '', labName: v.labName.trim(), reportNo: v.reportNo.trim() });
            message.success('化验单已上传，等待对方确认');
            onChanged();
            return true;
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        <ProFormSelect name="lab" label="化验机构类别" disabled options={Object.entries(LAB_KINDS).map(([value, label]) => ({ value, label }))} />
        <ProFormText name="labName" label="化验机构名称" rules={[{ required: true, message: '请输入化验机构名称' }]} />
        <ProFormText name="reportNo" label="化验单号" rules={[{ required: true, pattern: /^[A-Za-z0-9-]{2,40}$/, message: '化验单号为 2–40 位字母、数字或 -' }]} />
        <ProFormText name="batch" label="批次" placeholder="不填为整单" />
        <ProFormDigit name="qnet" label="Qnet,ar (kcal/kg)" min={3000} max={7500} fieldProps={{ precision: 0 }} rules={[{ required: true, message: '请输入发热量' }]} />
        <ProFormDigit name="mt" label="全水分 Mt (%)" min={0} max={40} fieldProps={{ precision: 2 }} rules={[{ required: true, message: '请输入全水分' }]} />
        <ProFormDigit name="st" label="全硫 St,d (%)" min={0} max={10} fieldProps={{ precision: 2 }} rules={[{ required: true, message: '请输入全硫' }]} />
        <ProFormDigit name="ad" label="灰分 Ad (%)" min={0} max={60} fieldProps={{ precision: 2 }} rules={[{ required: true, message: '请输入灰分' }]} />
        <ProFormDigit name="vdaf" label="挥发分 Vdaf (%)" min={0} max={60} fieldProps={{ precision: 2 }} rules={[{ required: true, message: '请输入挥发分' }]} />
        <ProFormDatePicker name="testedAt" label="化验日期" rules={[{ required: true, message: '请选择化验日期' }]} fieldProps={{ style: { width: '100%' } }} />
        <ProForm.Item name="file" label="化验单文件" rules={[{ required: true, message: '请上传化验单文件' }]} extra="PDF 或 JPG/PNG 图片">
          <Upload visibility="private" accept={UPLOAD_EXTENSIONS.join(',')} listType="text" />
        </ProForm.Item>
      </GuardedModalForm>
      <GuardedModalForm<{ reason: string }>
        title={`化验单异议：${disputing?.reportNo ?? ''}`}
        open={disputing !== null}
        onOpenChange={(o) => !o && setDisputing(null)}
        width={480}
        modalProps={{ destroyOnHidden: true }}
        submitter={{ searchConfig: { submitText: '提交异议', resetText: '取消' } }}
        onFinish={async (v) => {
          try {
            await answerQualityReport(disputing!.id, { accept: false, reason: v.reason.trim() });
            message.success('异议已提交');
            setDisputing(null);
            onChanged();
            return true;
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        <ProFormTextArea name="reason" label="异议原因" rules={[{ required: true, min: 2, max: 300, message: '请输入异议原因（2–300 字）' }]} />
      </GuardedModalForm>
    </>
  );
}
