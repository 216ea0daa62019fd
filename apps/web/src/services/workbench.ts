import type { Workbench } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** The 工作台首页's counts (apps/server/src/modules/workbench/workbench.routes.ts). */
export const WORKBENCH_KEY = ['workbench', 'todo'] as const;
export const getWorkbench = () => requestResult<Workbench>('/api/workbench/todo');
