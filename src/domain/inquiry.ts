/** What an eligibility inquiry (a 270) asks: the operations build one, the X12 layer writes it. */
import type { IsoDate } from './coverage.ts';

export interface InquiryPerson {
  member_id: string | null;
  first_name: string | null;
  last_name: string | null;
  dob: IsoDate | null;
  /** ZIP sent with name + DOB searches (270 2100C N4). */
  zip: string | null;
}

export interface Inquiry {
  /** TRN*1 trace number; echoed by the payer in TRN*2. */
  trace_number: string;
  payer: { id: string; name: string | null };
  provider: {
    npi: string | null;
    first_name: string | null;
    last_name: string | null;
    organization_name: string | null;
    /** NUCC provider taxonomy code (2100B PRV*PE*PXC), from the provider registry; absent or null: no PRV. */
    taxonomy?: string | null;
  };
  subscriber: InquiryPerson;
  /** Set for dependent inquiries (loop 2000D); the subscriber then carries the member ID. */
  dependent: InquiryPerson | null;
  /** EQ service type codes, in order of preference (docs/interface.md section 6). */
  service_types: string[];
  /** DTP*291: the date of service the inquiry is about. */
  date: IsoDate;
  /** CPT/HCPCS code of the encounter (2110C EQ02, when sent); absent or null: service types only. */
  procedure_code?: string | null;
  /** CMS place of service of the encounter (domain/encounter.ts); absent or null: not sent. */
  place_of_service?: string | null;
}

/** Behavioral-health service type codes in order of preference; 30 is the fallback every payer answers. */
export const BEHAVIORAL_HEALTH_SERVICE_TYPES = ['MH', 'CF', 'A6', 'A8', '30', '98'] as const;
