/** The service's {@link ServiceMetrics} instance, whatever its subclass (the scrape endpoint renders it). */
export const SERVICE_METRICS = Symbol('SERVICE_METRICS');
