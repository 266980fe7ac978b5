/** Injection token of the AuditRepository (an interface, so it needs a token). */
export const AUDIT_REPOSITORY = Symbol('AUDIT_REPOSITORY');
