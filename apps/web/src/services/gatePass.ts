import { API_PREFIX, type GatePassTicketInput, type GatePassView } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** The weighbridge by QR code (apps/server/src/api/gate-pass.routes.ts): no sign-in, the pass is the permission. */

export type { GatePassView };

const path = (pass: string) => `/api/gate-pass/${encodeURIComponent(pass)}`;

export const GATE_PASS_KEYS = { pass: (pass: string) => ['gate-pass', pass] as const };

export const getGatePass = (pass: string) => requestResult<GatePassView>(path(pass));
export const recordGatePassTicket = (pass: string, body: GatePassTicketInput) => requestResult<GatePassView>(`${path(pass)}/ticket`, { method: 'POST', data: body });
/** Where the clerk's photo goes (the Upload component posts field `file` there). */
export const gatePassPhotoUrl = (pass: string) => `${API_PREFIX}${path(pass)}/photo`;

/** The address a truck's QR code opens on a phone. */
export function weighbridgeUrl(pass: string) {
  return `${window.location.origin}/weighbridge?pass=${encodeURIComponent(pass)}`;
}
