import type { ReactNode } from 'react';
import { ProFormTextArea } from '@ant-design/pro-components';
import { message } from 'antd';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';

/** A shared request schema (zod), as far as this form needs it. */
interface ReasonSchema<V> {
  safeParse(values: unknown): { success: true; data: V } | { success: false; error: { issues: { message: string }[] } };
}

export interface ReasonModalProps<V extends { reason: string }, R> {
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  width?: number;
  /** The reason's label (终止原因); its required and too-short messages are made from it. */
  label: string;
  placeholder?: string;
  /** Fewer characters are refused in the form, as the schema refuses them. */
  minLength?: number;
  /** The request's schema; the form's values must pass it, or its first complaint shows. */
  schema: ReasonSchema<V>;
  /** Asked after 下一步 (what ends, where the money goes); false keeps the form open. */
  confirm?: (values: V) => Promise<boolean>;
  /** The form's OK button: 下一步 when a confirmation follows. */
  submitText?: string;
  submit: (values: V) => Promise<R>;
  /** The success message. */
  done: string | ((saved: R) => string);
  /** Shown when the server gives no message of its own. */
  failure: string;
  onDone: (saved: R) => void;
  /** Fields or text above the reason. */
  children?: ReactNode;
}

/**
 * The trading centre's rulings on a contract, order or long-term deal (终止, 作废, 延期): a reason (and the
 * fields of `children`), checked by the shared schema, an optional confirmation, then the call. The form never
 * loses typed work (GuardedModalForm) and stays open when the server refuses.
 */
export default function ReasonModal<V extends { reason: string }, R>(props: ReasonModalProps<V, R>) {
  const { title, open, onOpenChange, width = 520, label, placeholder, minLength, schema, confirm, submitText = '下一步', submit, done, failure, onDone, children } = props;
  return (
    <GuardedModalForm
      title={title}
      open={open}
      onOpenChange={onOpenChange}
      width={width}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText, resetText: '取消' } }}
      onFinish={async (values) => {
        const checked = schema.safeParse(values);
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '填写有误');
          return false;
        }
        if (confirm && !(await confirm(checked.data))) return false;
        try {
          const saved = await submit(checked.data);
          message.success(typeof done === 'function' ? done(saved) : done);
          onDone(saved);
          return true;
        } catch (error) {
          message.error(errorMessage(error, failure));
          return false;
        }
      }}
    >
      {children}
      <ProFormTextArea
        name="reason"
        label={label}
        placeholder={placeholder}
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[{ required: true, message: `请输入${label}` }, ...(minLength ? [{ min: minLength, message: `${label}至少 ${minLength} 个字` }] : [])]}
      />
    </GuardedModalForm>
  );
}
