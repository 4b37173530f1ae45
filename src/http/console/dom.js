// Small helpers shared by the console's scripts: building elements and formatting money, dates and phones.

/** Builds an element; children are nodes or text (never HTML). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'class') el.className = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Cents as dollars; null stays null (unknown is never $0.00). */
export const dollars = (cents) => (typeof cents === 'number' ? money.format(cents / 100) : null);

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** "2026-05-06" as "May 6, 2026": no day/month order to misread. */
export const dateText = (iso) => (typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? longDate.format(new Date(`${iso}T00:00:00Z`)) : (iso ?? null));

/** Today in the browser's calendar, as YYYY-MM-DD. */
export function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A US number as (800) 555-0142 with a tel: link; anything else as given. */
export function phoneLink(phone) {
  if (!phone) return null;
  const digits = String(phone)
    .replace(/\D/g, '')
    .replace(/^1(?=\d{10}$)/, '');
  const text = digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : String(phone);
  return h('a', { href: `tel:${digits || phone}`, class: 'phone' }, text);
}

/** A person's name as the payer gave it, in ordinary capitals ("MAYA GOLDBERG" reads as "Maya Goldberg"). */
export function properName(text) {
  if (!text) return text;
  return /[a-z]/.test(text) ? text : text.toLowerCase().replace(/(^|[\s'-])([a-z])/g, (_, pre, c) => pre + c.toUpperCase());
}
