// Which server this is, on every screen: a sandbox console answers from made-up members, so it says
// so in a band no one can miss (and in the tab's title); a production console shows the hints of
// production's rules (a payer is always named there: nothing picks one for a blank field).

const $ = (id) => document.getElementById(id);

const PRODUCTION_HINTS = {
  'payer-help':
    "Payer ID from the member's card, or start typing the payer's name. Required: a live " +
    "check goes to the payer named here (Medicaid may give the patient's state instead).",
  // The template's rows are sandbox members, which a live payer does not know.
  'template-link': 'Download a template (its rows are sandbox examples: replace them with your patients)',
};

/** env: 'sandbox' or 'production', as /console/session reports it. */
export function showMode(env) {
  if (env !== 'sandbox' && env !== 'production') return;
  document.body.dataset.mode = env;
  const banner = $('mode-banner');
  if (env === 'sandbox') {
    banner.hidden = false;
    if (!document.title.startsWith('SANDBOX')) document.title = `SANDBOX · ${document.title}`;
    return;
  }
  banner.hidden = true;
  for (const [id, text] of Object.entries(PRODUCTION_HINTS)) {
    const hint = $(id);
    if (hint) hint.textContent = text;
  }
}
