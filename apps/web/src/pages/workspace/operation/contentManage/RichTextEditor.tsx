import { useEffect, useRef, useState } from 'react';
import { Button, Input, Segmented, Space, Tooltip } from 'antd';
import { BoldOutlined, ItalicOutlined, OrderedListOutlined, UnorderedListOutlined, UnderlineOutlined, ClearOutlined } from '@ant-design/icons';

/**
 * A plain rich-text area for announcement bodies: a contentEditable with a small toolbar, and the HTML source as a
 * text area. What it produces is sent to the server, which sanitises it; the page shows only the sanitised copy.
 */
export default function RichTextEditor({ value, onChange }: { value?: string; onChange?: (html: string) => void }) {
  const [mode, setMode] = useState<'visual' | 'html'>('visual');
  const area = useRef<HTMLDivElement>(null);

  // Load the value into the editable area when it changes from outside (open another record, switch back from HTML).
  useEffect(() => {
    if (mode === 'visual' && area.current && area.current.innerHTML !== (value ?? '')) area.current.innerHTML = value ?? '';
  }, [value, mode]);

  const exec = (command: string, arg?: string) => {
    area.current?.focus();
    document.execCommand(command, false, arg);
    onChange?.(area.current?.innerHTML ?? '');
  };
  const tool = (title: string, icon: React.ReactNode, command: string, arg?: string) => (
    <Tooltip title={title} key={title}>
      <Button size="small" type="text" icon={icon} onMouseDown={(e) => e.preventDefault()} onClick={() => exec(command, arg)} aria-label={title} />
    </Tooltip>
  );

  return (
    <div className="coalx-rte">
      <div className="coalx-rte-toolbar">
        {mode === 'visual' ? (
          <Space size={2}>
            <Button size="small" type="text" onMouseDown={(e) => e.preventDefault()} onClick={() => exec('formatBlock', 'h3')}>
              标题
            </Button>
            <Button size="small" type="text" onMouseDown={(e) => e.preventDefault()} onClick={() => exec('formatBlock', 'p')}>
              正文
            </Button>
            {tool('加粗', <BoldOutlined />, 'bold')}
            {tool('斜体', <ItalicOutlined />, 'italic')}
            {tool('下划线', <UnderlineOutlined />, 'underline')}
            {tool('编号列表', <OrderedListOutlined />, 'insertOrderedList')}
            {tool('项目列表', <UnorderedListOutlined />, 'insertUnorderedList')}
            {tool('清除格式', <ClearOutlined />, 'removeFormat')}
          </Space>
        ) : (
          <span className="coalx-rte-hint">网页源码（保存时由服务器净化，脚本与事件属性会被移除）</span>
        )}
        <Segmented
          size="small"
          value={mode}
          onChange={(v) => setMode(v as 'visual' | 'html')}
          options={[
            { label: '可视化', value: 'visual' },
            { label: '源码', value: 'html' },
          ]}
        />
      </div>
      {mode === 'visual' ? (
        <div
          ref={area}
          className="coalx-rte-area"
          contentEditable
          suppressContentEditableWarning
          role="textbox"
          aria-multiline="true"
          aria-label="正文"
          onInput={() => onChange?.(area.current?.innerHTML ?? '')}
        />
      ) : (
        <Input.TextArea value={value} onChange={(e) => onChange?.(e.target.value)} autoSize={{ minRows: 10, maxRows: 20 }} aria-label="正文源码" />
      )}
    </div>
  );
}
