import { MediaError } from './book-reader.ts';

/** A page over the decode limits: served as stored, never decoded. Code ERR_1007 (bad entry). */
export class DecodeRefused extends MediaError {
  constructor(message: string) {
    super('ERR_1007', message);
    this.name = 'DecodeRefused';
  }
}
