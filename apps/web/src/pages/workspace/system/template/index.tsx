import { useState } from 'react';
import { HistoryOutlined, FilePdfOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Skeleton, Space, Tabs, Tag, message } from 'antd';
import { CONTRACT_KIND_KEYS, CONTRACT_KINDS, unknownPlaceholders, unknownPlaceholdersMessage, type ContractKind, type ContractTemplate } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { CONTRACT_TEMPLATES_QUERY_KEY, contractPlaceholders, listContractTemplates, saveContractTemplate } from '@/services/contractTemplate';
import PdfPreviewModal from './components/PdfPreviewModal';
import TemplateEditor, { type Draft } from './components/TemplateEditor';
import VersionHistory from './components/VersionHistory';
import './template.css';

/** Line endings and trailing blanks as the server compares them. */
const normalize = (body: string) => body.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trimEnd();

/**
 * 模板配置 (workspace /system/template, admin): one contract template per kind, edited as text with placeholders,
 * previewed live on a sample deal and as its PDF, saved as a new version (contracts keep the version they were
 * made from), with the history of versions.
 */
export default function SystemTemplatePage() {
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: CONTRACT_TEMPLATES_QUERY_KEY, queryFn: listContractTemplates });
  const placeholders = useQuery({ queryKey: ['contract-template', 'placeholders'], queryFn: contractPlaceholders, staleTime: Infinity });
  const [kind, setKind] = useState<ContractKind>('listing_sale');
  const [drafts, setDrafts] = useState<Partial<Record<ContractKind, Draft>>>({});
  const [historyOpen, setHistoryOpen] = useState(false);
  const [pdfOpen, setPdfOpen] = useState(false);
  const [saving, setSaving] = useState(false);

  const current = templates.data?.find((t) => t.kind === kind);
  const draft = drafts[kind] ?? (current ? { name: current.name, body: current.body } : null);
  const dirty = (k: ContractKind) => {
    const d = drafts[k];
    const c = templates.data?.find((t) => t.kind === k);
    return Boolean(d && c && (normalize(d.body) !== normalize(c.body) || d.name.trim() !== c.name));
  };
  const bodyChanged = Boolean(draft && current && normalize(draft.body) !== normalize(current.body));

  const setDraft = (next: Draft) => setDrafts((all) => ({ ...all, [kind]: next }));
  const reset = () => setDrafts(({ [kind]: _dropped, ...rest }) => rest);

  const save = () => {
    if (!draft || !current) return;
    const unknown = unknownPlaceholders(draft.body);
    if (unknown.length) {
      message.error(unknownPlaceholdersMessage(unknown));
      return;
    }
    if (!draft.name.trim()) {
      message.error('请输入模板名称');
      return;
    }
    Modal.confirm({
      title: '保存为新版本',
      content: `将「${CONTRACT_KINDS[kind]}」模板保存为第 ${current.version + 1} 版。已生成的合同仍使用原版本，此后成交的合同使用新版本。`,
      okText: '保存',
      cancelText: '取消',
      onOk: async () => {
        setSaving(true);
        try {
          const { template, message: text } = await saveContractTemplate({ kind, name: draft.name.trim(), body: draft.body });
          queryClient.setQueryData<ContractTemplate[]>(CONTRACT_TEMPLATES_QUERY_KEY, (list) => list?.map((t) => (t.kind === kind ? template : t)));
          await queryClient.invalidateQueries({ queryKey: ['contract-template', 'history', kind] });
          reset();
          message.success(text);
        } catch (error) {
          message.error(errorMessage(error, '保存失败，请稍后重试'));
        } finally {
          setSaving(false);
        }
      },
    });
  };

  if (templates.isError) return <Alert type="error" showIcon message={errorMessage(templates.error, '合同模板加载失败')} />;

  return (
    <div className="coalx-template-page">
      <Tabs
        activeKey={kind}
        onChange={(key) => setKind(key as ContractKind)}
        items={CONTRACT_KIND_KEYS.map((k) => {
          const t = templates.data?.find((x) => x.kind === k);
          return {
            key: k,
            label: (
              <span>
                {CONTRACT_KINDS[k]}
                {t ? <span className="coalx-template-tab-version">v{t.version}</span> : null}
                {dirty(k) ? <span className="coalx-template-tab-dirty" title="有未保存的修改" /> : null}
              </span>
            ),
          };
        })}
      />
      {templates.isLoading || placeholders.isLoading || !draft ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : !current ? (
        <Alert type="warning" showIcon message={`尚未配置${CONTRACT_KINDS[kind]}模板`} />
      ) : (
        <>
          <div className="coalx-template-head">
            <div className="coalx-template-meta" data-testid="template-meta">
              <Tag color="blue">当前第 {current.version} 版</Tag>
              <span>最后修改：{current.createdBy}</span>
              <span>{current.createdAt}</span>
              {dirty(kind) ? <Tag color="orange">有未保存的修改</Tag> : null}
            </div>
            <Space>
              <Button icon={<HistoryOutlined />} onClick={() => setHistoryOpen(true)}>
                版本历史
              </Button>
              <Button icon={<FilePdfOutlined />} onClick={() => setPdfOpen(true)}>
                预览 PDF
              </Button>
              <Button icon={<UndoOutlined />} disabled={!dirty(kind)} onClick={reset}>
                撤销修改
              </Button>
              <Button type="primary" icon={<SaveOutlined />} disabled={!bodyChanged} loading={saving} onClick={save}>
                保存为新版本
              </Button>
            </Space>
          </div>
          <TemplateEditor key={kind} kind={kind} draft={draft} placeholders={placeholders.data ?? []} onChange={setDraft} />
          <VersionHistory kind={kind} open={historyOpen} onClose={() => setHistoryOpen(false)} onUse={(t) => setDraft({ name: t.name, body: t.body })} />
          <PdfPreviewModal kind={kind} version={current.version} open={pdfOpen} onClose={() => setPdfOpen(false)} />
        </>
      )}
    </div>
  );
}
