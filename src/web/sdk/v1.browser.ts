import { createSdk } from './sdk';

// Loaded twice (two script tags), the first instance stays: one listener, one id sequence.
if (!window.ArcadeSDK) {
  Object.defineProperty(window, 'ArcadeSDK', { value: Object.freeze(createSdk(window)), enumerable: true });
}
