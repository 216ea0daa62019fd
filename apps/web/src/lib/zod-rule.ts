import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/** An antd form rule from a shared zod schema: the same check and the same Chinese message as the server's. */
export function zodRule(schema: z.ZodType, options: { required?: boolean } = {}): Rule {
  return {
    required: options.required ?? true,
    validator: async (_rule, value: unknown) => {
      if ((value === undefined || value === null || value === '') && options.required === false) return;
      const result = schema.safeParse(value ?? '');
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
    },
  };
}
