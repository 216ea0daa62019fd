import type { z } from 'zod';
import type {
  AreaNode,
  Attachment,
  ChangeRequest,
  CheckExistResult,
  EnterpriseChangeApplyInput,
  EnterpriseDetail,
  EnterpriseInfo,
  EnterpriseRegisterInput,
  EnterpriseResubmitInput,
  EnterpriseUpdateInput,
  Member,
  RegisterResultSchema,
  SmsOutboxRecordSchema,
  MemberAddInput,
} from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/** The caller's enterprise; null for operators and admins, who belong to none. */
export function getEnterpriseInfo(): Promise<EnterpriseInfo> {
  return requestResult<EnterpriseInfo>('/sys/enterprise/info');
}

// ---- registration (visitors) ----
export function checkEnterpriseExist(data: { organName?: string; creditCode?: string; username?: string }) {
  return requestResult<CheckExistResult>('/sys/enterprise/checkExist', { method: 'POST', data });
}

export type RegisterResult = z.infer<typeof RegisterResultSchema>;

export function registerEnterprise(data: EnterpriseRegisterInput) {
  return requestResult<RegisterResult>('/sys/enterprise/add', { method: 'POST', data });
}

export function getRejectedRegistration(data: { username: string; password: string }) {
  return requestResult<EnterpriseDetail>('/sys/enterprise/rejectedInfo', { method: 'POST', data, skipErrorHandler: true });
}

export function resubmitRegistration(data: EnterpriseResubmitInput) {
  return requestResult<RegisterResult>('/sys/enterprise/resubmit', { method: 'POST', data, skipErrorHandler: true });
}

export function sendSmsCode(mobile: string) {
  return requestResult<{ expiresIn: number; resendIn: number }>('/sys/sms/send', { method: 'POST', data: { mobile, scene: 'register' } });
}

// ---- areas (spec §3 cascading area node) ----
export function getAreaRoot() {
  return requestResult<AreaNode[]>('/sys/area/root');
}
export function getAreaChildren(pcode: string) {
  return requestResult<AreaNode[]>('/sys/area/children', { params: { pcode } });
}

// ---- the enterprise's own data ----
export function getEnterpriseDetail() {
  return requestResult<EnterpriseDetail>('/sys/enterprise/detail');
}
export function getAttachmentList() {
  return requestResult<Attachment[]>('/sys/enterprise/attachmentList');
}
export function updateEnterprise(data: EnterpriseUpdateInput) {
  return requestResult<EnterpriseDetail>('/sys/enterprise/update', { method: 'PUT', data });
}
export function applyEnterpriseChange(data: EnterpriseChangeApplyInput) {
  return requestResult<EnterpriseDetail>('/sys/enterprise/change/apply', { method: 'POST', data });
}
export function listMembers() {
  return requestResult<Member[]>('/sys/enterprise/member/list');
}
export function addMember(data: MemberAddInput) {
  return requestResult<{ id: number; username: string; initialPassword: string }>('/sys/enterprise/member/add', { method: 'POST', data });
}
export function setMemberDisabled(id: number, disabled: boolean) {
  return requestResult<Member>('/sys/enterprise/member/disable', { method: 'POST', data: { id, disabled } });
}

// ---- the trading centre ----
export function listEnterprisesForAudit(params: { pageNo: number; pageSize: number; auditStatus?: string; keyword?: string }) {
  return requestResult<PageResult<EnterpriseDetail>>('/sys/enterprise/audit/list', { params });
}
export function approveEnterprise(id: number) {
  return requestResult<EnterpriseDetail>('/sys/enterprise/audit/approve', { method: 'POST', data: { id } });
}
export function rejectEnterprise(id: number, reason: string) {
  return requestResult<EnterpriseDetail>('/sys/enterprise/audit/reject', { method: 'POST', data: { id, reason } });
}
export function listChangeRequests(params: { pageNo: number; pageSize: number; status?: string }) {
  return requestResult<PageResult<ChangeRequest>>('/sys/enterprise/change/list', { params });
}
export function approveChangeRequest(id: number) {
  return requestResult<ChangeRequest>('/sys/enterprise/change/approve', { method: 'POST', data: { id } });
}
export function rejectChangeRequest(id: number, reason: string) {
  return requestResult<ChangeRequest>('/sys/enterprise/change/reject', { method: 'POST', data: { id, reason } });
}

export type SmsOutboxRecord = z.infer<typeof SmsOutboxRecordSchema>;
export function listSmsOutbox(params: { pageNo: number; pageSize: number; mobile?: string }) {
  return requestResult<PageResult<SmsOutboxRecord>>('/sys/sms/outbox', { params });
}
