import { useState } from 'react';
import { message } from 'antd';
import type { FormInstance } from 'antd/es/form';
import { errorMessage } from '@/app/request';

/**
 * Saving a publishing form as a draft or for audit: validate (marking the wrong fields), send once at a time, say
 * what happened in Chinese, then hand the saved trade on.
 */
export function useSaveTrade<Raw, Saved>(
  form: FormInstance<Raw>,
  send: (values: Raw, submit: boolean) => Promise<Saved>,
  onSaved: (saved: Saved, submitted: boolean) => void,
) {
  const [sending, setSending] = useState<null | 'draft' | 'submit'>(null);
  const save = async (submit: boolean) => {
    let raw: Raw;
    try {
      raw = await form.validateFields();
    } catch {
      message.error('请检查表单中标红的项目');
      return;
    }
    setSending(submit ? 'submit' : 'draft');
    try {
      // every field, also those unmounted or without rules, with the validated values on top
      const saved = await send({ ...form.getFieldsValue(true), ...raw }, submit);
      message.success(submit ? '已提交，等待交易中心审核' : '草稿已保存');
      onSaved(saved, submit);
    } catch (error) {
      message.error(errorMessage(error, '保存失败，请稍后重试'));
    } finally {
      setSending(null);
    }
  };
  return { sending, save };
}
