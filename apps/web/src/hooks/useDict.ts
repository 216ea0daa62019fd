export { useDict, useDictionaries, getDictText, dictValueEnum } from '@/app/dict';
