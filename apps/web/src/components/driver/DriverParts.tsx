import { Descriptions, Divider, Tag, Typography } from 'antd';
import { formatTons, type DriverDetail } from '@coalx/shared';
import EnterpriseAttachments from '@/components/EnterpriseAttachments';

/** A driver's audit state as a tag: the colours the other audit pages use. */
const STATUS_COLOR: Record<string, string> = { pending: 'processing', approved: 'success', rejected: 'error', disabled: 'default' };

export function DriverStatusTag({ status, text }: { status: string; text: string }) {
  return <Tag color={STATUS_COLOR[status] ?? 'default'}>{text}</Tag>;
}

/** One driver for the detail drawers of 司机车辆 and 司机审核: the person, the truck, the audit, the three photos. */
export function DriverDescriptions({ driver, showEnterprise = false }: { driver: DriverDetail; showEnterprise?: boolean }) {
  return (
    <>
      <Descriptions column={2} bordered size="small" labelStyle={{ width: 110 }}>
        {showEnterprise ? (
          <Descriptions.Item label="所属企业" span={2}>
            {driver.enterpriseName}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label="司机姓名">{driver.name}</Descriptions.Item>
        <Descriptions.Item label="手机号码">
          <span className="coalx-num">{driver.mobile}</span>
        </Descriptions.Item>
        <Descriptions.Item label="身份证号码">
          <span className="coalx-num">{driver.idCardNo}</span>
        </Descriptions.Item>
        <Descriptions.Item label="驾驶证号">
          <span className="coalx-num">{driver.licenceNo}</span>
        </Descriptions.Item>
        <Descriptions.Item label="车牌号">
          <Typography.Text strong>{driver.plateNo}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="车辆类型">{driver.vehicleTypeText}</Descriptions.Item>
        <Descriptions.Item label="核定载重">
          <span className="coalx-num">{formatTons(driver.ratedLoadKg)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="审核状态">
          <DriverStatusTag status={driver.status} text={driver.statusText} />
        </Descriptions.Item>
        <Descriptions.Item label="登记人">{driver.createdBy || '-'}</Descriptions.Item>
        <Descriptions.Item label="登记时间">{driver.createdAt}</Descriptions.Item>
        <Descriptions.Item label="审核人">{driver.auditedBy ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="审核时间">{driver.auditedAt ?? '-'}</Descriptions.Item>
        {driver.auditNote ? (
          <Descriptions.Item label="驳回原因" span={2}>
            <Typography.Text type="danger">{driver.auditNote}</Typography.Text>
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <Divider orientation="left">证件照片</Divider>
      <EnterpriseAttachments attachments={driver.photos} />
    </>
  );
}
