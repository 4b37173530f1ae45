/** Test helpers: the public samples (vendored with their license in test/fixtures/x12-samples/) and hand-written interchanges. */
import { readFileSync } from 'node:fs';

export const SAMPLES = new URL('../fixtures/x12-samples/', import.meta.url);

export const SAMPLE = {
  subscriber270: 'linuxforhealth-subscriber-health-benefit-check.270',
  subscriber271: 'linuxforhealth-subscriber-health-benefit-check.271',
  dependent270: 'linuxforhealth-dependent-health-benefit-check.270',
  dependent271: 'linuxforhealth-dependent-health-benefit-check.271',
  error271: 'linuxforhealth-subscriber-health-benefit-check-error.271',
} as const;

export function sample(name: string): string {
  return readFileSync(new URL(name, SAMPLES), 'utf8');
}

const ISA = 'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *250101*1200*^*00501*000000042*0*T*:';
const VERSION: Record<string, string> = { '270': '005010X279A1', '271': '005010X279A1', '999': '005010X231A1' };
const FUNCTIONAL: Record<string, string> = { '270': 'HS', '271': 'HB', '999': 'FA' };

/** An interchange around one transaction set whose body segments are given without terminators. */
export function interchange(setId: '270' | '271' | '999', body: string[]): string {
  const segs = [
    ISA,
    `GS*${FUNCTIONAL[setId]}*SENDER*RECEIVER*20250101*1200*42*X*${VERSION[setId]}`,
    `ST*${setId}*0001*${VERSION[setId]}`,
    ...body,
    `SE*${body.length + 2}*0001`,
    'GE*1*42',
    'IEA*1*000000042',
  ];
  return segs.map((s) => `${s}~\n`).join('');
}

/** The usual 271 head: payer, provider, subscriber level (dependent level when dependent lines are given). */
export function body271(subscriber: string[], dependent?: string[]): string[] {
  const head = ['BHT*0022*11*TRACE1*20250101*1200', 'HL*1**20*1', 'NM1*PR*2*TEST PAYER*****PI*P123', 'HL*2*1*21*1', 'NM1*1P*2*CLINIC*****XX*1234567893'];
  if (!dependent) return [...head, 'HL*3*2*22*0', 'TRN*2*TRACE1*9P123', 'NM1*IL*1*DOE*JANE****MI*M100', ...subscriber];
  return [...head, 'HL*3*2*22*1', 'NM1*IL*1*DOE*JOHN****MI*M100', ...subscriber, 'HL*4*3*23*0', 'TRN*2*TRACE1*9P123', 'NM1*03*1*DOE*JANE', ...dependent];
}

/** The rows in an order fixed by `seed` (a linear congruential shuffle): properties read a 271 with its rows in another order. */
export function shuffled<T>(rows: readonly T[], seed: number): T[] {
  const out = rows.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    // Kept in [0, 2^31) for any integer seed: a negative one would index before the list.
    s = (((s * 1103515245 + 12345) % 2147483648) + 2147483648) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
