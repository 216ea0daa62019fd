import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, List, Modal, Skeleton, Tag } from 'antd';
import { CONTRACT_KINDS, type ContractKind, type ContractTemplate } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { contractTemplateHistory } from '@/services/contractTemplate';

/** Every version of one kind, newest first; a past body can be read and taken into the editor. */
export default function VersionHistory({
  kind,
  open,
  onClose,
  onUse,
}: {
  kind: ContractKind;
  open: boolean;
  onClose: () => void;
  onUse: (template: ContractTemplate) => void;
}) {
  const history = useQuery({ queryKey: ['contract-template', 'history', kind], queryFn: () => contractTemplateHistory(kind), enabled: open });
  const [viewing, setViewing] = useState<ContractTemplate | null>(null);
  const latest = history.data?.[0]?.version;

  return (
    <>
      <Drawer title={`${CONTRACT_KINDS[kind]} · 版本历史`} open={open} onClose={onClose} width={520} destroyOnHidden>
        {history.isError ? <Alert type="error" showIcon message={errorMessage(history.error, '版本历史加载失败')} /> : null}
        {history.isLoading ? (
          <Skeleton active />
        ) : (
          <List
            dataSource={history.data ?? []}
            renderItem={(t) => (
              <List.Item
                data-testid={`template-version-${t.version}`}
                actions={[
                  <Button key="view" type="link" onClick={() => setViewing(t)}>
                    查看
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <span>
                      第 {t.version} 版 {t.version === latest ? <Tag color="green">当前</Tag> : null}
                    </span>
                  }
                  description={
                    <span>
                      {t.name}　{t.createdBy}　{t.createdAt}
                    </span>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Drawer>
      <Modal
        title={viewing ? `${viewing.name} · 第 ${viewing.version} 版` : ''}
        open={viewing !== null}
        onCancel={() => setViewing(null)}
        width={760}
        footer={[
          <Button key="close" onClick={() => setViewing(null)}>
            关闭
          </Button>,
          <Button
            key="use"
            type="primary"
            onClick={() => {
              onUse(viewing!);
              setViewing(null);
              onClose();
            }}
          >
            以此版本为基础编辑
          </Button>,
        ]}
      >
        <pre className="coalx-template-version-body">{viewing?.body}</pre>
      </Modal>
    </>
  );
}
