/** One version of a Good Faith Estimate as its row keeps it in the open: the rest of it is sealed (store/good-faith-estimates.ts). */
export interface GfeVersion {
  id: string;
  version: number;
  status: string;
  service_date: string | null;
  due_date: string | null;
  total_cents: number;
  created_at: string;
  given_at: string | null;
}
