/**
 * A Good Faith Estimate as FHIR R4, in the shape of the Da Vinci Patient Cost Transparency (PCT) IG's
 * GFE Bundle (docs/good-faith-estimate.md#fhir): a `collection` Bundle holding the Patient, a self-pay
 * Coverage (the client is the payor), one Organization per provider (NPI and TIN) and one Claim of
 * the GFE professional profile per provider (`use: predetermination`): its services as items (CPT or
 * HCPCS, quantity, unit price, net), the diagnosis codes (ICD-10-CM), the period of care, the total
 * and the notices as gfeDisclaimer extensions. Pure; the fullUrls are derived from the estimate's id
 * and version, so the same version always gives the same Bundle.
 */
import type { Bundle, Claim, ClaimItem, Coverage, Organization, Patient, Resource } from '@medplum/fhirtypes';
import type { GoodFaithEstimate } from '../domain/schemas/good-faith-estimates.ts';
import { COVERAGE_FHIR_BASE, CS } from './systems.ts';

export const PCT = {
  bundle: 'http://hl7.org/fhir/us/davinci-pct/StructureDefinition/davinci-pct-gfe-bundle',
  claim: 'http://hl7.org/fhir/us/davinci-pct/StructureDefinition/davinci-pct-gfe-professional',
  disclaimer: 'http://hl7.org/fhir/us/davinci-pct/StructureDefinition/gfeDisclaimer',
} as const;

const SYSTEMS = {
  hcpcs: 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  tin: 'urn:oid:2.16.840.1.113883.4.4',
  gfeId: `${COVERAGE_FHIR_BASE}/good-faith-estimate`,
  claimType: 'http://terminology.hl7.org/CodeSystem/claim-type',
  priority: 'http://terminology.hl7.org/CodeSystem/processpriority',
  selfPay: 'http://terminology.hl7.org/CodeSystem/coverage-selfpay',
} as const;

/** 32 bits of FNV-1a over the text, from a seed: fhir/ does no I/O and takes no Node built-in, so no node:crypto. */
function fnv1a(text: string, seed: number): string {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** A UUID (version 4 layout) from the estimate and the part it names: stable across reads, not a secret. */
function stableUuid(...parts: (string | number)[]): string {
  const text = parts.join('|');
  const h = [1, 2, 3, 4].map((seed) => fnv1a(text, seed)).join('');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const usd = (cents: number) => ({ value: cents / 100, currency: 'USD' as const });
const isHcpcs = (code: string) => /^[A-V]/.test(code);

export function gfeBundle(gfe: GoodFaithEstimate): Bundle {
  const url = (...parts: (string | number)[]) => `urn:uuid:${stableUuid(gfe.id, gfe.version, ...parts)}`;
  const patientUrl = url('patient');
  const coverageUrl = url('coverage');
  const patient: Patient = {
    resourceType: 'Patient',
    name: [{ given: [gfe.client.first_name], family: gfe.client.last_name }],
    birthDate: gfe.client.dob,
  };
  const coverage: Coverage = {
    resourceType: 'Coverage',
    status: 'active',
    type: { coding: [{ system: SYSTEMS.selfPay, code: 'pay', display: 'PAY' }], text: 'Self-pay (uninsured or not using coverage)' },
    beneficiary: { reference: patientUrl },
    payor: [{ reference: patientUrl }],
  };
  const notices = [
    gfe.notices.additional_services,
    gfe.notices.estimate_only,
    gfe.notices.dispute_rights,
    gfe.notices.not_a_contract,
    ...(gfe.separate_scheduling.items.length > 0
      ? [
          `Expected to need separate scheduling: ${gfe.separate_scheduling.items.map((i) => (i.code ? `${i.description} (${i.code})` : i.description)).join('; ')}.${gfe.separate_scheduling.instructions ? ` ${gfe.separate_scheduling.instructions}` : ''}`,
        ]
      : []),
  ];
  const entries: { fullUrl: string; resource: Resource }[] = [
    { fullUrl: patientUrl, resource: patient },
    { fullUrl: coverageUrl, resource: coverage },
  ];
  gfe.providers.forEach((p, n) => {
    const orgUrl = url('organization', n);
    const organization: Organization = {
      resourceType: 'Organization',
      identifier: [
        { system: CS.npi, value: p.npi },
        { type: { coding: [{ system: CS.hl7IdentifierType, code: 'TAX' }] }, system: SYSTEMS.tin, value: p.tin.replace('-', '') },
      ],
      name: p.name,
      address: p.locations.map((l) => ({
        state: l.state,
        ...(l.address ? { text: l.address } : {}),
        ...(l.office ? { line: [l.office] } : {}),
      })),
    };
    const codes = [...new Set([...gfe.diagnosis_codes, ...p.services.flatMap((s) => s.diagnosis_codes)])];
    const items: ClaimItem[] = p.services.map((s, i) => ({
      sequence: i + 1,
      ...(codes.length > 0
        ? { diagnosisSequence: (s.diagnosis_codes.length > 0 ? s.diagnosis_codes : gfe.diagnosis_codes).map((c) => codes.indexOf(c) + 1) }
        : {}),
      productOrService: { coding: [{ system: isHcpcs(s.code) ? SYSTEMS.hcpcs : CS.cpt, code: s.code }], ...(s.description ? { text: s.description } : {}) },
      ...(s.modifier ? { modifier: [{ coding: [{ system: isHcpcs(s.code) ? SYSTEMS.hcpcs : CS.cpt, code: s.modifier }] }] } : {}),
      ...(gfe.period_of_care
        ? { servicedPeriod: { start: gfe.period_of_care.start, end: gfe.period_of_care.end } }
        : gfe.primary_service.scheduled_date
          ? { servicedDate: gfe.primary_service.scheduled_date }
          : {}),
      ...(p.locations[0] ? { locationAddress: { state: p.locations[0].state } } : {}),
      quantity: { value: s.quantity },
      unitPrice: usd(s.charge_cents),
      net: usd(s.total_cents),
    }));
    const claim: Claim = {
      resourceType: 'Claim',
      meta: { profile: [PCT.claim] },
      extension: notices.map((text) => ({ url: PCT.disclaimer, valueString: text })),
      identifier: [{ system: SYSTEMS.gfeId, value: `${gfe.id}/${gfe.version}/${n + 1}` }],
      status: 'active',
      type: { coding: [{ system: SYSTEMS.claimType, code: 'professional' }] },
      use: 'predetermination',
      patient: { reference: patientUrl },
      ...(gfe.period_of_care ? { billablePeriod: { start: gfe.period_of_care.start, end: gfe.period_of_care.end } } : {}),
      created: gfe.created_at,
      provider: { reference: orgUrl, display: p.name },
      priority: { coding: [{ system: SYSTEMS.priority, code: 'normal' }] },
      ...(codes.length > 0
        ? { diagnosis: codes.map((c, i) => ({ sequence: i + 1, diagnosisCodeableConcept: { coding: [{ system: SYSTEMS.icd10cm, code: c }] } })) }
        : {}),
      insurance: [{ sequence: 1, focal: true, coverage: { reference: coverageUrl } }],
      item: items,
      total: usd(p.total_cents),
    };
    entries.push({ fullUrl: orgUrl, resource: organization }, { fullUrl: url('claim', n), resource: claim });
  });
  return {
    resourceType: 'Bundle',
    meta: { profile: [PCT.bundle] },
    identifier: { system: SYSTEMS.gfeId, value: `${gfe.id}/${gfe.version}` },
    type: 'collection',
    timestamp: gfe.created_at,
    entry: entries,
  };
}
