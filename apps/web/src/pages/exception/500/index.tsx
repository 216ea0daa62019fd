import Exception from '@/components/Exception';

export default function Exception500Page() {
  return <Exception status={500} />;
}
