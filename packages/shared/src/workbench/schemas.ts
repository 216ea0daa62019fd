import { z } from 'zod';

/**
 * The 工作台首页 (待办): what each role has waiting, as counts with the page that deals with them, and for
 * enterprises the money that is tied up. Counts are computed on every read, so they are never stale.
 */
export const WorkbenchTodoSchema = z.object({
  /** Stable name of the item, e.g. `enterpriseAudit`, for tests and the web's icons. */
  key: z.string(),
  title: z.string(),
  count: z.number().int(),
  /** A workspace path that lists these items; null when the role has no page for them yet. */
  path: z.string().nullable(),
  hint: z.string(),
});
export type WorkbenchTodo = z.infer<typeof WorkbenchTodoSchema>;

export const WorkbenchMoneySchema = z.object({
  key: z.string(),
  title: z.string(),
  /** Integer fen. */
  amount: z.number().int(),
  path: z.string().nullable(),
});
export type WorkbenchMoney = z.infer<typeof WorkbenchMoneySchema>;

export const WorkbenchSchema = z.object({
  /** 交易中心运营, 系统管理员, or the enterprise's name. */
  heading: z.string(),
  todos: z.array(WorkbenchTodoSchema),
  money: z.array(WorkbenchMoneySchema),
});
export type Workbench = z.infer<typeof WorkbenchSchema>;

/** The workspace opens on this page for every role. */
export const WORKBENCH_PATH = '/workbench';
