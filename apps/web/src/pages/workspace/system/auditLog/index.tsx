export { default } from '@/components/UnderConstruction';
