import { startHost } from './host';

startHost(document, window);
