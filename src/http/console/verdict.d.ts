// Types of verdict.js, the console's plain-JS module the server and the CLI also read.

export type VerdictState =
  'active' | 'at-risk' | 'no-price' | 'partial' | 'inactive' | 'not-started' | 'carve-out-priced' | 'carve-out' | 'not-found' | 'payer-failure' | 'error';

export interface Verdict {
  state: VerdictState;
  tone: 'ok' | 'warn' | 'bad';
  text: string;
  next: string;
  price: number | null;
}

export interface Administrator {
  name: string;
  payer_id?: string | null;
  phone?: string | null;
}

export function moneyText(cents: unknown): string | null;
export function shortDateText(iso: string | null | undefined): string | null;
export function phoneText(phone: string | null | undefined): string | null;
export function properName(text: string): string;
export function pricedBy(body: object): Administrator | null;
export function verdict(endpoint: string, status: number, body: object | null | undefined, today: string | null): Verdict;
