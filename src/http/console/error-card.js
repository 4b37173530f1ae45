// An answer that is not coverage, in words: what happened and what the front desk does next.
// The error code stays in small print for whoever supports the desk.

import { h } from './dom.js';
import { verdict } from './verdict.js';

const CARD_PHONE = "the phone number on the back of the member's card";

/**
 * Each error code of the API (README, "Status codes") as a title, an explanation and next steps.
 * A step may carry `try`: an endpoint the console can switch to with the patient's details kept.
 */
const WORDS = {
  MEMBER_NOT_FOUND: {
    title: 'The payer found no member with these details',
    text: 'This does not mean the patient has no insurance: the payer could not match the ID, name and date of birth it was sent.',
    steps: [
      { text: 'Check the member ID against the card, letters and prefix included (for example XOF before the digits).' },
      { text: 'Check the spelling of the first and last name and the date of birth exactly as on the card.' },
      { text: "Try the patient's name and date of birth without the member ID.", try: 'discover', label: 'Try name + date of birth' },
      { text: 'Not sure which plan? Search every payer with name and date of birth.', try: 'scan', label: 'Search every payer' },
    ],
  },
  PAYER_FAILURE: {
    title: "The payer's system did not answer",
    text: "The insurance company's eligibility system failed or timed out. Nothing is known about this patient's coverage yet.",
    steps: [{ text: 'Try again in a few minutes.' }, { text: `If it keeps failing, call the payer: ${CARD_PHONE}.` }],
  },
  PAYER_NOT_SUPPORTED: {
    title: 'This payer cannot be checked from here',
    text: 'The payer is unknown to this service, or it does not accept eligibility checks from it.',
    steps: [{ text: 'Check the payer chosen in the form (the payer ID on the card).' }, { text: `Call the payer: ${CARD_PHONE}.` }],
  },
  PROVIDER_NOT_RECOGNIZED: {
    title: 'The payer does not recognize the provider',
    text: 'The payer has no record of the provider NPI that was sent.',
    steps: [
      { text: 'Check the provider NPI in the form.' },
      { text: "The provider may not be enrolled with this payer: ask your billing team, or call the payer's provider services line." },
    ],
  },
  TOO_MANY_REQUESTS: {
    title: 'Too many checks at once',
    text: 'Checks are being sent faster than allowed (by this service or by the payer).',
    steps: [{ text: 'Wait a moment and check again.' }],
  },
  INVALID_REQUEST: {
    title: 'Some details need fixing',
    text: 'The check was not sent to the payer.',
    steps: [{ text: 'Correct the fields marked in the form and check again.' }],
  },
  UNAUTHORIZED: {
    title: 'Not signed in',
    text: 'The key or session was not accepted, or has expired.',
    steps: [{ text: 'Sign in again (or enter a current API key) and repeat the check.' }],
  },
  SERVICE_UNAVAILABLE: {
    title: 'The service is restarting or busy',
    text: 'Nothing was checked.',
    steps: [{ text: 'Try again in a minute.' }],
  },
  INTERNAL_ERROR: {
    title: 'Something went wrong in this service',
    text: "Nothing is known about this patient's coverage from this check.",
    steps: [{ text: 'Try again; if it happens again, give the reference below to whoever supports this system.' }],
  },
};

const FALLBACK = {
  title: 'The check did not complete',
  text: '',
  steps: [{ text: 'Try again; if it happens again, give the reference below to whoever supports this system.' }],
};

export const errorWords = (code) => WORDS[code] ?? FALLBACK;

/** PAYER_NOT_SUPPORTED for an ID that names no payer (the API names payer_id in `errors`): a typo to fix, not a payer to call. */
const UNKNOWN_PAYER = {
  title: 'No payer has this ID',
  text: 'The payer ID names no payer this service reaches; nothing was sent to a payer.',
  steps: [{ text: 'Fix the payer ID (as on the card, or pick the payer from the list) and check again.' }],
};
const wordsFor = (body) =>
  body.error_code === 'PAYER_NOT_SUPPORTED' && body.errors?.some((e) => e.field === 'payer_id') ? UNKNOWN_PAYER : errorWords(body.error_code);

/** Payer errors reported next to an answer (a list from the API, when it sends one), in the payer's words and its follow-up. */
export function payerErrorsList(list) {
  if (!Array.isArray(list) || list.length === 0) return null;
  return h(
    'section',
    { class: 'payer-errors', 'aria-label': 'What the payer reported' },
    h('h3', {}, 'What the payer reported'),
    h(
      'ul',
      {},
      list.map((e) => {
        const what = e.message ?? e.description ?? e.reason ?? e.code ?? 'An error';
        const next = e.follow_up ?? e.followup_action ?? e.followup ?? e.action ?? null;
        return h('li', {}, what, next ? h('span', { class: 'next' }, `What to do: ${next}`) : null);
      }),
    ),
  );
}

/** The verdict (verdict.js) the schedule table and its CSV give this refusal, in the card's words. */
function verdictLine(status, body) {
  const v = verdict('', status, body, null);
  return h('section', { class: `verdict verdict-${v.tone}`, 'data-verdict': v.state, 'aria-label': 'Verdict' }, h('p', { class: 'verdict-text' }, v.text));
}

/**
 * `options.onTry(endpoint)` switches the form to another check; `options.retryAfter` (seconds) comes
 * from the Retry-After header; `options.fieldLabel(field)` names a field as the form's label does.
 */
export function errorCard(status, body, options = {}) {
  const batch = options.context === 'batch';
  const words =
    batch && body.error_code === 'INVALID_REQUEST'
      ? {
          title: 'The file was not accepted',
          text: `${body.message ?? ''}.`.replace(/\.\.$/, '.'),
          steps: [{ text: 'Fix these rows in the spreadsheet (row 1 is the header) and upload the file again.' }],
        }
      : wordsFor(body);
  const steps = words.steps.map((s) => {
    const text = body.error_code === 'TOO_MANY_REQUESTS' && options.retryAfter ? `Wait ${options.retryAfter} seconds and check again.` : s.text;
    const action = s.try && options.onTry ? h('button', { type: 'button', class: 'secondary try', 'data-try': s.try }, s.label) : null;
    action?.addEventListener('click', () => options.onTry(s.try));
    return h('li', {}, text, action ? ' ' : null, action);
  });
  const fieldErrors = body.errors?.length
    ? h(
        'ul',
        { class: 'errors' },
        body.errors.map((e) => h('li', {}, `${e.row ? `Row ${e.row}: ` : ''}${options.fieldLabel?.(e.field) ?? e.field} ${e.message}`)),
      )
    : null;
  return h(
    'article',
    {
      class: `card card-error error-${String(body.error_code ?? 'unknown')
        .toLowerCase()
        .replace(/_/g, '-')}`,
      'aria-labelledby': 'card-title',
    },
    h('header', { class: 'card-head' }, h('h2', { id: 'card-title' }, words.title)),
    batch ? null : verdictLine(status, body),
    words.text ? h('p', {}, words.text) : null,
    fieldErrors,
    payerErrorsList(body.payer_errors),
    h('section', { class: 'next-steps', 'aria-label': 'What to do next' }, h('h3', {}, 'What to do next'), h('ol', {}, steps)),
    h('p', { class: 'muted small reference' }, `Reference: ${body.error_code ?? 'ERROR'} (HTTP ${status})${body.request_id ? ` · ${body.request_id}` : ''}`),
  );
}
