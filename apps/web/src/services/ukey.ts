import type { UkeyAction, UkeyCertificate, UkeyChallenge, UkeyDevice, UkeyRevokeReason } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** Key-device calls (apps/server/src/modules/ukey/ukey.routes.ts is the contract). */

export interface DeviceState {
  id: number;
  status: UkeyDevice['status'];
}

export const UKEY_DEVICES_QUERY_KEY = ['ukey', 'devices'] as const;

export function queryDevices(): Promise<{ records: UkeyDevice[]; canApprove: boolean }> {
  return requestResult('/api/ukey/device/query', { method: 'POST', data: {} });
}
export function applyDevice(body: { deviceName: string; csr: string; payPassword?: string }): Promise<DeviceState> {
  return requestResult('/api/ukey/device/apply', { method: 'POST', data: body });
}
export function renewDevice(body: { deviceId: number; csr: string; payPassword?: string }): Promise<DeviceState> {
  return requestResult('/api/ukey/device/update', { method: 'POST', data: body });
}
export function approveDevice(deviceId: number): Promise<DeviceState> {
  return requestResult('/api/ukey/device/approve', { method: 'POST', data: { deviceId } });
}
export function rejectDevice(deviceId: number, reason: string): Promise<DeviceState> {
  return requestResult('/api/ukey/device/reject', { method: 'POST', data: { deviceId, reason } });
}
export function revokeDevice(deviceId: number, reason: UkeyRevokeReason): Promise<DeviceState> {
  return requestResult('/api/ukey/device/delete', { method: 'POST', data: { deviceId, reason } });
}
export function queryCertificates(deviceId?: number): Promise<UkeyCertificate[]> {
  return requestResult('/api/ukey/certificate/query', { method: 'POST', data: deviceId ? { deviceId } : {} });
}
export function requestChallenge(action: UkeyAction, payloadHash: string): Promise<UkeyChallenge> {
  return requestResult('/api/ukey/challenge', { method: 'POST', data: { action, payloadHash } });
}
