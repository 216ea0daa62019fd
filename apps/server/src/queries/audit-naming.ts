import type { AuditNaming } from '../modules/audit/audit.service';

/**
 * How 操作日志 names things (issue 27 item 2): the business number of the object a route named by its internal id,
 * and the actor's real role. A read over every module's tables, so it lives here, above the modules; the audit
 * module's insert runs these lookups in the statement that writes the row (`x.id` is the numeric object id, `r` the
 * row), so the names are those at the moment of the action.
 */
export const auditNaming: AuditNaming = {
  objectNumbers: [
    ['合同', 'SELECT contract_no FROM contract WHERE id = x.id'],
    ['订单', 'SELECT order_no FROM trade_order WHERE id = x.id'],
    ['派车单', 'SELECT dispatch_no FROM dispatch WHERE id = x.id'],
    ['化验单', 'SELECT report_no FROM quality_report WHERE id = x.id'],
    ['结算单', 'SELECT statement_no FROM settlement_statement WHERE id = x.id'],
    ['发票', 'SELECT number FROM invoice WHERE id = x.id'],
    ['运费结算单', 'SELECT statement_no FROM freight_statement WHERE id = x.id'],
    ['长协', 'SELECT long_term_no FROM long_term_deal WHERE id = x.id'],
    ['月度调运', 'SELECT call_off_no FROM long_term_call_off WHERE id = x.id'],
    ['司机', 'SELECT plate_no FROM driver WHERE id = x.id'],
    ['用户', 'SELECT username FROM sys_user WHERE id = x.id'],
    ['角色', 'SELECT name FROM sys_role WHERE id = x.id'],
  ],
  roleName: 'SELECT name FROM sys_role WHERE id = r."roleId"',
};
