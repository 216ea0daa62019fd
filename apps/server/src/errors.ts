import { ERRORS, type ErrorCode } from '@coalx/shared';

/** An expected refusal: HTTP status, stable code and a Chinese message (the global handler presents it). */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message?: string) {
    super(message ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
  }
}

export const badRequest = (message?: string) => new AppError('validation_failed', message);
export const notSignedIn = () => new AppError('not_signed_in');
export const tokenInvalid = () => new AppError('token_invalid');
export const forbidden = (message?: string) => new AppError('forbidden', message);
export const notFound = (message?: string) => new AppError('not_found', message);
export const conflict = (message?: string) => new AppError('conflict', message);
export const businessRule = (message: string) => new AppError('business_rule', message);
export const appError = (code: ErrorCode, message?: string) => new AppError(code, message);
