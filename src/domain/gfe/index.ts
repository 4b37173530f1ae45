/** The Good Faith Estimate for uninsured and self-pay clients (docs/good-faith-estimate.md): pure. */
export * from './business-days.ts';
export * from './due-date.ts';
export * from './totals.ts';
export * from './required-elements.ts';
export * from './billed-check.ts';
export * from './version.ts';
