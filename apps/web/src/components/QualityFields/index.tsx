import { ProFormDigit } from '@ant-design/pro-components';
import { Col, Row } from 'antd';
import { QUALITY_FIELDS } from '@coalx/shared';

type QualityKey = keyof typeof QUALITY_FIELDS;

/** Bounds the server's QualitySchema enforces, so the form refuses the same values before sending. */
function bounds(key: QualityKey): [number, number] {
  if (key === 'qnet') return [1000, 8000];
  if (key === 'ashFusion') return [900, 1700];
  return [0, 100];
}

/**
 * The coal quality indicators (DESIGN.md §6) of a listing or an auction form, under `quality.*`: calorific value
 * and ash fusion in whole units, percentages with 2 decimals; ash fusion is optional.
 */
export default function QualityFields() {
  return (
    <Row gutter={24}>
      {(Object.keys(QUALITY_FIELDS) as QualityKey[]).map((key) => {
        const f = QUALITY_FIELDS[key];
        const integer = key === 'qnet' || key === 'ashFusion';
        const [min, max] = bounds(key);
        return (
          <Col xs={12} md={8} lg={4} key={key}>
            <ProFormDigit
              name={['quality', key]}
              label={f.label}
              min={min}
              max={max}
              placeholder={key === 'ashFusion' ? '选填' : '请输入'}
              rules={key === 'ashFusion' ? [] : [{ required: true, message: `请输入${f.label.split(' ')[0]}` }]}
              fieldProps={{ precision: integer ? 0 : 2, addonAfter: f.unit, style: { width: '100%' } }}
            />
          </Col>
        );
      })}
    </Row>
  );
}
