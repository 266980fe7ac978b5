/**
 * Per-tenant settings of the audit log. Prompt capture is off unless the tenant is listed in
 * AUDIT_PROMPT_CAPTURE_TENANTS: by default no prompt is ever stored.
 */
export class TenantSettings {
  private readonly promptCapture: ReadonlySet<string>;

  constructor(promptCaptureTenants: readonly string[]) {
    this.promptCapture = new Set(promptCaptureTenants);
  }

  /** Parses the comma-separated AUDIT_PROMPT_CAPTURE_TENANTS (already validated by the config class). */
  static fromList(list: string): TenantSettings {
    return new TenantSettings(list.split(',').filter((tenant) => tenant !== ''));
  }

  capturesPrompts(tenant: string): boolean {
    return this.promptCapture.has(tenant);
  }
}
