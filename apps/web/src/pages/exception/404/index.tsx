import Exception from '@/components/Exception';

export default function Exception404Page() {
  return <Exception status={404} />;
}
