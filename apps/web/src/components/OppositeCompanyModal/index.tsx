import { useQuery } from '@tanstack/react-query';
import { Descriptions, Modal, Result, Skeleton } from 'antd';
import { errorMessage } from '@/app/request';
import { getOppositeCompany } from '@/services/listing';

/** The counterparty's contact, shown to the two sides of a deal only (queryOppositeCompanyInfo). */
export default function OppositeCompanyModal({ dealId, onClose }: { dealId: number | null; onClose: () => void }) {
  const query = useQuery({
    queryKey: ['listing', 'opposite', dealId],
    queryFn: () => getOppositeCompany(dealId!),
    enabled: dealId !== null,
    retry: false,
  });
  return (
    <Modal open={dealId !== null} onCancel={onClose} footer={null} title="成交对方信息" width={560} destroyOnHidden>
      {query.isLoading ? (
        <Skeleton active />
      ) : query.error ? (
        <Result status="warning" title={errorMessage(query.error, '对方信息暂不可查看')} />
      ) : query.data ? (
        <Descriptions column={1} bordered size="middle">
          <Descriptions.Item label="企业名称">{query.data.organName}</Descriptions.Item>
          <Descriptions.Item label="对方角色">{query.data.role}</Descriptions.Item>
          <Descriptions.Item label="联系人">{query.data.contactName || '-'}</Descriptions.Item>
          <Descriptions.Item label="联系电话">{query.data.contactMobile || '-'}</Descriptions.Item>
          <Descriptions.Item label="企业地址">{query.data.address || '-'}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </Modal>
  );
}
