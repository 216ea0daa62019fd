import type { z } from 'zod';

const TYPE_NAMES: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '列表',
  date: '日期',
  bigint: '整数',
};

/**
 * Chinese wording for every schema refusal that has no message of its own (zod's zh-CN locale still names types
 * and keys in English: `期望 string，实际接收 number`). Install with `z.config({ customError: chineseIssueMessage })`.
 */
export function chineseIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return '不能为空';
      return `应为${TYPE_NAMES[issue.expected] ?? '正确的类型'}`;
    case 'too_big':
      if (issue.origin === 'string') return `过长，最多 ${issue.maximum} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `过多，最多 ${issue.maximum} 项`;
      return '过大';
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? '不能为空' : `过短，至少 ${issue.minimum} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `至少 ${issue.minimum} 项`;
      return '过小';
    case 'invalid_format':
      return '格式不正确';
    case 'not_multiple_of':
      return '精度不正确';
    case 'unrecognized_keys':
      return '请求包含不支持的字段';
    case 'invalid_value':
      return '不在可选范围内';
    default:
      return '格式不正确';
  }
}
