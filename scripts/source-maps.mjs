// Source maps of the `coverage` bundle keep only the mappings into our own sources (bundle-cli.mjs).
// Node parses a chunk's whole map the first time a stack frame in that chunk is formatted, and it
// formats more often than errors are logged (a stream destroyed with an error reads its stack): with
// every dependency mapped, the maps held about 65 MB of heap once parsed, a fifth of that ours. A
// frame in a dependency keeps its position in the bundle, whose comments name the package file.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The numbers of one VLQ segment (source map v3). */
function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = DIGIT.get(ch);
    if (digit === undefined) throw new Error(`source map: "${ch}" is not a base64 digit`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

function encodeNumber(n) {
  let value = n < 0 ? -n * 2 + 1 : n * 2;
  let text = '';
  do {
    let digit = value % 32;
    value = Math.floor(value / 32);
    if (value > 0) digit |= 32;
    text += BASE64[digit];
  } while (value > 0);
  return text;
}

/** Each line's segments with absolute values: [column] or [column, source, line, column(, name)]. */
export function decodeMappings(mappings) {
  const state = [0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter((s) => s !== '')
      .map((text) => {
        const d = decodeSegment(text);
        column += d[0];
        if (d.length === 1) return [column];
        for (let i = 0; i < d.length - 1; i++) state[i] += d[i + 1];
        return d.length === 5 ? [column, state[0], state[1], state[2], state[3]] : [column, state[0], state[1], state[2]];
      });
  });
}

export function encodeMappings(lines) {
  const state = [0, 0, 0, 0];
  return lines
    .map((segments) => {
      let column = 0;
      return segments
        .map((seg) => {
          let text = encodeNumber(seg[0] - column);
          column = seg[0];
          for (let i = 1; i < seg.length; i++) {
            text += encodeNumber(seg[i] - state[i - 1]);
            state[i - 1] = seg[i];
          }
          return text;
        })
        .join(',');
    })
    .join(';');
}

/**
 * The map with every segment into a source `keep` refuses turned into "not mapped" (a segment of a
 * generated column alone, once per run of them), so such a position maps to nothing rather than to
 * the nearest mapped position before it.
 */
export function keepMappings(map, keep) {
  const kept = map.sources.map((source) => keep(source));
  // Across lines: a position maps by the last segment at or before it, so one marker covers the
  // run to the next mapped segment, however many lines it spans.
  let unmapped = true;
  const lines = decodeMappings(map.mappings).map((segments) => {
    const out = [];
    for (const seg of segments) {
      if (seg.length > 1 && kept[seg[1]]) {
        out.push(seg);
        unmapped = false;
      } else if (!unmapped) {
        out.push([seg[0]]);
        unmapped = true;
      }
    }
    return out;
  });
  // Node reads a one-number segment at the very end of the string as mapped (its parser looks for
  // a separator after it): an empty last line puts one there.
  const last = lines.findLast((segments) => segments.length > 0)?.at(-1);
  return { ...map, mappings: encodeMappings(lines) + (last?.length === 1 ? ';' : '') };
}
