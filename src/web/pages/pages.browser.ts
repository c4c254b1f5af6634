import { startPages } from './pages';

startPages(document, window);
