/** The sandbox member table as Markdown, for the README (a test keeps the two identical). */
import { sandboxMemberTable } from './member-table.ts';

export const README_TABLE_START = '<!-- sandbox-members:start -->';
export const README_TABLE_END = '<!-- sandbox-members:end -->';

export function memberTableMarkdown(): string {
  const rows = sandboxMemberTable().map((m) => {
    const expectations = Object.entries(m.expectations)
      .map(([endpoint, e]) => `${endpoint} ${e.status}${e.error_code ? ` ${e.error_code}` : ''}`)
      .join(', ');
    const name = m.first_name ? `${m.first_name} ${m.last_name}` : '(any)';
    return `| \`${m.member_id}\` | ${name} | ${m.dob ?? '(any)'} | ${m.payer_id || '(any)'}${m.patient_state ? ` (${m.patient_state})` : ''} | ${m.scenario} | ${expectations} | ${m.description} |`;
  });
  return ['| member_id | name | dob | payer (state) | scenario | endpoints: expected status | what it shows |', '|---|---|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}
