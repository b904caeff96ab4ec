// The Parse SDK instance of the running Parse Server, handed to the cloud code
// at start-up (ParseServer's `cloud` option), so every feature uses that one.

import type ParseType from 'parse/node';

export type ParseSdk = typeof ParseType;

let instance: ParseSdk | undefined;

export function setParse(parse: ParseSdk): void {
  instance = parse;
}

export function parse(): ParseSdk {
  if (!instance) throw new Error('Parse Server has not started the cloud code yet');
  return instance;
}

export const MASTER = { useMasterKey: true } as const;

/**
 * What a lookup by id finds, or undefined when there is no such object. Any
 * other failure (the database down) goes on, to be answered 503, not 404.
 */
export async function unlessMissing<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    const Parse = parse();
    if (error instanceof Parse.Error && error.code === Parse.Error.OBJECT_NOT_FOUND) return undefined;
    throw error;
  }
}
