// The fake judges uploads with the same magic-byte rule the SDK applies before sending: one implementation.
export { sniffMediaType } from '../core/uploads/sniff-media-type.js';
