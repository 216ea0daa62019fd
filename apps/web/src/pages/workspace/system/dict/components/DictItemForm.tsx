import { ProFormDigit, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { Form, Typography } from 'antd';
import { DictItemAddSchema, type DictAdminDictionary, type DictAdminItem } from '@coalx/shared';
import GuardedModalForm from '@/components/GuardedModalForm';
import { zodRule } from '@/lib/zod-rule';

export interface DictItemValues {
  value: string;
  text: string;
  sort: number;
  enabled: boolean;
}

/** Adds an item to the dictionary, or edits one (`item`): the value names records, so it is fixed once added. */
export default function DictItemForm(props: {
  dictionary: DictAdminDictionary;
  item: DictAdminItem | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (values: DictItemValues) => Promise<boolean>;
}) {
  const { dictionary, item, open, onOpenChange, onSubmit } = props;
  const [form] = Form.useForm<DictItemValues>();
  const nextSort = Math.max(-1, ...dictionary.items.map((i) => i.sort)) + 1;
  return (
    <GuardedModalForm<DictItemValues>
      title={item ? `编辑字典项：${item.text}` : `新增字典项：${dictionary.name}`}
      open={open}
      form={form}
      width={480}
      layout="horizontal"
      labelCol={{ span: 5 }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onOpenChange={onOpenChange}
      initialValues={item ? { value: item.value, text: item.text, sort: item.sort, enabled: item.enabled } : { sort: nextSort, enabled: true }}
      submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
      onFinish={onSubmit}
    >
      <ProFormText
        name="value"
        label="字典值"
        disabled={Boolean(item)}
        placeholder="字母、数字、下划线或连字符"
        rules={[zodRule(DictItemAddSchema.shape.value)]}
        extra={item ? '字典值已被记录引用，不能修改' : '保存后不能修改'}
      />
      <ProFormText name="text" label="显示文字" placeholder="页面上显示的文字" rules={[zodRule(DictItemAddSchema.shape.text)]} fieldProps={{ maxLength: 20, showCount: true }} />
      <ProFormDigit name="sort" label="排序" min={0} max={999} fieldProps={{ precision: 0 }} rules={[zodRule(DictItemAddSchema.shape.sort)]} extra="数字小的排在前面" />
      {item ? <ProFormSwitch name="enabled" label="启用" fieldProps={{ checkedChildren: '启用', unCheckedChildren: '停用' }} /> : null}
      {item && item.inUse > 0 ? (
        <Typography.Text type="secondary">
          已有 {item.inUse} 条{dictionary.usedBy}使用此值；停用后这些记录仍显示原文字，新业务不再可选。
        </Typography.Text>
      ) : null}
    </GuardedModalForm>
  );
}
