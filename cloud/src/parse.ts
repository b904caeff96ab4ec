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
