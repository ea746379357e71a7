/**
 * `JSON.stringify(value, null, indent)` of a plain object, in pieces: each of its array
 * properties a few dozen items at a time (optionally mapped item by item as they are
 * reached), so a report or a kept result of tens of thousands of routes is never one text in
 * memory. Pieces stay well below the size V8 gives a space of its own (large objects are
 * freed only by a full collection). Joined, the pieces are exactly what JSON.stringify makes.
 */

/** Items of an array per piece. */
const ITEMS_PER_PIECE = 40;

export function* jsonPieces(value: Record<string, unknown>, indent: 0 | 2, map: Record<string, (item: never) => unknown> = {}): Generator<string> {
  const lists = Object.keys(value).filter((k) => Array.isArray(value[k]));
  // The document with a marker where each list goes: JSON.stringify's indentation of a nested
  // value is its own indentation shifted by its depth, so the lists are stringified apart.
  const marker = (name: string): string => `\u0000${name}\u0000`;
  const skeleton = JSON.stringify(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lists.includes(k) ? marker(k) : v])), null, indent || undefined);
  const colon = indent ? ': ' : ':';
  let rest = skeleton;
  for (const name of lists) {
    // with its key: a string before it in the document holds no bare quote
    const quoted = `${JSON.stringify(name)}${colon}${JSON.stringify(marker(name))}`;
    const at = rest.indexOf(quoted);
    yield rest.slice(0, at) + `${JSON.stringify(name)}${colon}`;
    rest = rest.slice(at + quoted.length);
    const items = value[name] as unknown[];
    if (items.length === 0) {
      yield '[]';
      continue;
    }
    const each = map[name] as ((item: unknown) => unknown) | undefined;
    // A piece is the list's slice stringified at the list's own depth (under its key in an
    // object), its brackets cut off.
    const open = indent ? `{\n  ${JSON.stringify(name)}: [\n` : `{${JSON.stringify(name)}:[`;
    const close = indent ? '\n  ]\n}' : ']}';
    for (let i = 0; i < items.length; i += ITEMS_PER_PIECE) {
      const slice = items.slice(i, i + ITEMS_PER_PIECE);
      const piece = JSON.stringify({ [name]: each ? slice.map(each) : slice }, null, indent || undefined);
      yield (i === 0 ? (indent ? '[\n' : '[') : indent ? ',\n' : ',') + piece.slice(open.length, piece.length - close.length);
    }
    yield indent ? '\n  ]' : ']';
  }
  yield rest;
}
