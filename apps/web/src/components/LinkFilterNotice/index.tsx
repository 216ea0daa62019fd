import { Alert, Button } from 'antd';

/** Says which filter a link (a 待办) opened the list with, and offers the whole list back. */
export default function LinkFilterNotice({ label, onClear }: { label: string | null; onClear: () => void }) {
  if (!label) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="link-filter"
      style={{ marginBottom: 12 }}
      message={`已筛选：${label}`}
      action={
        <Button size="small" type="link" onClick={onClear}>
          查看全部
        </Button>
      }
    />
  );
}
