import { useEffect, useRef, useState } from 'react';
import { Alert, Input, Space, Spin, Tag } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { placeholderLabel, unknownPlaceholders, type ContractKind, type ContractPlaceholderInfo, type ContractTemplatePreviewResult } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { previewContractTemplate } from '@/services/contractTemplate';
import PlaceholderPanel from './PlaceholderPanel';
import TemplatePreview from './TemplatePreview';

const PREVIEW_DELAY_MS = 400;

export interface Draft {
  name: string;
  body: string;
}

/** The preview of the body, asked of the server a moment after the admin stops typing. */
function useDebouncedPreview(kind: ContractKind, body: string) {
  const [preview, setPreview] = useState<ContractTemplatePreviewResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      previewContractTemplate({ kind, body }, controller.signal)
        .then((result) => {
          setPreview(result);
          setError(null);
        })
        .catch((e) => !controller.signal.aborted && setError(errorMessage(e, '预览失败')))
        .finally(() => !controller.signal.aborted && setLoading(false));
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, body]);
  return { preview, error, loading };
}

/** Name, placeholders, the body in a monospace editor and the live preview beside it. */
export default function TemplateEditor({
  kind,
  draft,
  placeholders,
  onChange,
}: {
  kind: ContractKind;
  draft: Draft;
  placeholders: ContractPlaceholderInfo[];
  onChange: (draft: Draft) => void;
}) {
  const textArea = useRef<TextAreaRef>(null);
  const { preview, error, loading } = useDebouncedPreview(kind, draft.body);
  const unknown = unknownPlaceholders(draft.body);

  const insert = (key: string, block: boolean) => {
    const el = textArea.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? draft.body.length;
    const end = el?.selectionEnd ?? start;
    let text = `{{${key}}}`;
    // a block placeholder only expands on a line of its own
    if (block) {
      if (start > 0 && draft.body[start - 1] !== '\n') text = `\n${text}`;
      if (draft.body[end] !== '\n') text = `${text}\n`;
    }
    onChange({ ...draft, body: draft.body.slice(0, start) + text + draft.body.slice(end) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  return (
    <div className="coalx-template-editor">
      <div className="coalx-template-name">
        <span>模板名称</span>
        <Input value={draft.name} maxLength={60} onChange={(e) => onChange({ ...draft, name: e.target.value })} aria-label="模板名称" style={{ width: 360 }} />
      </div>
      {unknown.length > 0 ? (
        <Alert
          className="coalx-template-unknown-alert"
          type="error"
          showIcon
          data-testid="template-unknown"
          message={
            <Space size={4} wrap>
              <span>模板中有未知占位符，保存前请修改：</span>
              {unknown.map((u) => (
                <Tag key={u} color="red">
                  {placeholderLabel(u)}
                </Tag>
              ))}
            </Space>
          }
        />
      ) : null}
      <div className="coalx-template-grid">
        <PlaceholderPanel placeholders={placeholders} onInsert={insert} />
        <div className="coalx-template-source">
          <div className="coalx-template-panel-title">模板正文（每行一段；# 标题，## 条款标题）</div>
          <Input.TextArea
            ref={textArea}
            value={draft.body}
            onChange={(e) => onChange({ ...draft, body: e.target.value })}
            spellCheck={false}
            className="coalx-template-textarea"
            aria-label="模板正文"
            data-testid="template-body"
          />
        </div>
        <div className="coalx-template-preview" data-testid="template-preview">
          <div className="coalx-template-panel-title">
            实时预览（示例成交：晋北煤业 → 华东电力燃料，1,000 吨）{loading ? <Spin size="small" style={{ marginLeft: 8 }} /> : null}
          </div>
          {error ? <Alert type="error" showIcon message={error} /> : null}
          <div className="coalx-template-preview-scroll">{preview ? <TemplatePreview paragraphs={preview.paragraphs} /> : <Spin />}</div>
        </div>
      </div>
    </div>
  );
}
