import { ProForm, ProFormDigit, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { Alert, Col, Row, message } from 'antd';
import type { z } from 'zod';
import {
  DRIVER_PHOTOS,
  DriverMobileSchema,
  DriverNameSchema,
  IdCardNoSchema,
  LicenceNoSchema,
  PlateNoSchema,
  RATED_LOAD_MAX_KG,
  RATED_LOAD_MIN_KG,
  VEHICLE_TYPES,
  type DriverDetail,
  type DriverPhotoKey,
} from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Upload from '@/components/Upload';
import { editDriver, registerDriver, type DriverRegister } from '@/services/driver';

interface Values {
  name: string;
  idCardNo: string;
  mobile: string;
  licenceNo: string;
  plateNo: string;
  vehicleType: string;
  /** tons in the form, kg on the wire */
  ratedLoadTons: number;
  idCardPhoto: string;
  drivingLicencePhoto: string;
  vehicleLicencePhoto: string;
}

/** A form rule from the shared schema, so the form refuses in the words the server would. */
function schemaRule(schema: z.ZodType) {
  return {
    validator: async (_: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
    },
  };
}

const PHOTO_HINTS: Record<DriverPhotoKey, string> = {
  idCardPhoto: '身份证人像面',
  drivingLicencePhoto: '驾驶证正页',
  vehicleLicencePhoto: '行驶证主页（含核定载质量）',
};

/**
 * 新增司机 / 编辑: the driver, his truck and three photos (private to the enterprise and the trading centre). A change
 * to an approved or rejected driver sends him back to the trading centre's audit; the form says so.
 */
export default function DriverForm({ open, driver, onOpenChange, onDone }: { open: boolean; driver: DriverDetail | null; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  const editing = driver !== null;
  const photoOf = (kind: DriverPhotoKey) => driver?.photos.find((p) => p.kind === kind)?.url;
  const initialValues: Partial<Values> | undefined = driver
    ? {
        name: driver.name,
        idCardNo: driver.idCardNo,
        mobile: driver.mobile,
        licenceNo: driver.licenceNo,
        plateNo: driver.plateNo,
        vehicleType: driver.vehicleType,
        ratedLoadTons: driver.ratedLoadKg / 1000,
        idCardPhoto: photoOf('idCardPhoto'),
        drivingLicencePhoto: photoOf('drivingLicencePhoto'),
        vehicleLicencePhoto: photoOf('vehicleLicencePhoto'),
      }
    : undefined;

  return (
    <GuardedModalForm<Values>
      title={editing ? `编辑司机：${driver.name}` : '新增司机'}
      // its own field ids: the list's search form beside it has fields of the same names
      name="driverForm"
      open={open}
      onOpenChange={onOpenChange}
      width={760}
      layout="vertical"
      initialValues={initialValues}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '提交审核', resetText: '取消' } }}
      onFinish={async (values) => {
        const body: DriverRegister = {
          name: values.name.trim(),
          idCardNo: values.idCardNo.trim(),
          mobile: values.mobile.trim(),
          licenceNo: values.licenceNo.trim(),
          plateNo: values.plateNo.trim(),
          vehicleType: values.vehicleType as DriverRegister['vehicleType'],
          ratedLoadKg: Math.round(values.ratedLoadTons * 1000),
          idCardPhoto: values.idCardPhoto,
          drivingLicencePhoto: values.drivingLicencePhoto,
          vehicleLicencePhoto: values.vehicleLicencePhoto,
        };
        try {
          if (editing) {
            const saved = await editDriver(driver.id, body);
            message.success(saved.status === 'pending' && driver.status !== 'pending' ? '已修改，等待交易中心重新审核' : '已保存');
          } else {
            await registerDriver(body);
            message.success('已登记，等待交易中心审核');
          }
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
        onDone();
        return true;
      }}
    >
      {editing && driver.status !== 'pending' && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="修改后该司机将重新提交交易中心审核，审核通过前不能派车。" />
      )}
      {editing && driver.status === 'rejected' && driver.auditNote && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`驳回原因：${driver.auditNote}`} />
      )}
      <Row gutter={16}>
        <Col span={8}>
          <ProFormText name="name" label="司机姓名" placeholder="如：王建国" fieldProps={{ maxLength: 20 }} rules={[{ required: true, message: '请输入司机姓名' }, schemaRule(DriverNameSchema)]} />
        </Col>
        <Col span={8}>
          <ProFormText name="idCardNo" label="身份证号码" placeholder="18 位身份证号码" fieldProps={{ maxLength: 18 }} rules={[{ required: true, message: '请输入身份证号码' }, schemaRule(IdCardNoSchema)]} />
        </Col>
        <Col span={8}>
          <ProFormText name="mobile" label="手机号码" placeholder="11 位手机号码" fieldProps={{ maxLength: 11, inputMode: 'numeric' }} rules={[{ required: true, message: '请输入司机手机号码' }, schemaRule(DriverMobileSchema)]} />
        </Col>
        <Col span={8}>
          <ProFormText name="licenceNo" label="驾驶证号" placeholder="12-18 位字母或数字" fieldProps={{ maxLength: 18 }} rules={[{ required: true, message: '请输入驾驶证号' }, schemaRule(LicenceNoSchema)]} />
        </Col>
        <Col span={8}>
          <ProFormText name="plateNo" label="车牌号" tooltip="新能源车 8 位，如 晋BD12345；挂车如 蒙K1234挂" placeholder="如：晋B12345" fieldProps={{ maxLength: 10 }} rules={[{ required: true, message: '请输入车牌号' }, schemaRule(PlateNoSchema)]} />
        </Col>
        <Col span={8}>
          <ProFormSelect
            name="vehicleType"
            label="车辆类型"
            placeholder="请选择车辆类型"
            options={Object.entries(VEHICLE_TYPES).map(([value, label]) => ({ value, label }))}
            rules={[{ required: true, message: '请选择车辆类型' }]}
          />
        </Col>
        <Col span={8}>
          <ProFormDigit
            name="ratedLoadTons"
            label="核定载重(吨)"
            placeholder="行驶证上的核定载质量"
            min={RATED_LOAD_MIN_KG / 1000}
            max={RATED_LOAD_MAX_KG / 1000}
            fieldProps={{ precision: 2, step: 1, addonAfter: '吨', style: { width: '100%' } }}
            rules={[{ required: true, message: '请输入核定载重' }]}
          />
        </Col>
      </Row>
      <Row gutter={16}>
        {(Object.keys(DRIVER_PHOTOS) as DriverPhotoKey[]).map((key) => (
          <Col span={8} key={key}>
            <ProForm.Item name={key} label={DRIVER_PHOTOS[key]} rules={[{ required: true, message: `请上传${DRIVER_PHOTOS[key]}` }]} extra={`${PHOTO_HINTS[key]}，.jpg .png .jpeg`}>
              <Upload visibility="private" />
            </ProForm.Item>
          </Col>
        ))}
      </Row>
    </GuardedModalForm>
  );
}
