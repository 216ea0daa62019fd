export * from './api';
export * from './errors';
export * from './auth/schemas';
export * from './permissions';
export * from './dict/index';
export * from './system/schemas';
export * from './files/schemas';
export * from './format';
export * from './money';

export const PRODUCT_TITLE = 'CoalX 煤炭现货交易平台';
export const COPYRIGHT_LINE = '© 2026 CoalX 供应链数据科技有限公司 版权所有';
export const ICP_NUMBER = '京ICP备2026000000号-1';
export * from './enterprise/credit-code';
export * from './enterprise/schemas';
export * from './funds/schemas';
export * from './listing/schemas';
export * from './auction/schemas';
export * from './content/schemas';
