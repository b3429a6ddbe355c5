//! What each device enqueue operation ([`DeviceOp`]) takes and gives, for
//! the verifier, the text format and the engines.

use crate::instructions::DeviceOp;
use crate::types::Type;

/// The kind of one operand of a device enqueue operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeviceOperand {
    /// An integer of this type (queues and events are `i64`).
    Int(Type),
    /// A pointer, in any address space.
    Ptr,
}

impl DeviceOp {
    /// Whether the operation names a kernel (`enqueue_kernel @k`, the
    /// kernel queries).
    pub fn names_kernel(self) -> bool {
        matches!(
            self,
            DeviceOp::EnqueueKernel
                | DeviceOp::KernelWorkGroupSize
                | DeviceOp::KernelPreferredWorkGroupSizeMultiple
                | DeviceOp::KernelSubGroupCount
                | DeviceOp::KernelMaxSubGroupSize
        )
    }

    /// The operands, in order.
    pub fn operands(self) -> &'static [DeviceOperand] {
        use DeviceOperand::{Int, Ptr};
        const EVENT: DeviceOperand = Int(Type::I64);
        match self {
            DeviceOp::EnqueueKernel => &[
                Int(Type::I64),
                Int(Type::I32),
                Ptr,
                Int(Type::I32),
                Ptr,
                Ptr,
                Ptr,
                Int(Type::I32),
                Ptr,
            ],
            DeviceOp::EnqueueMarker => &[Int(Type::I64), Int(Type::I32), Ptr, Ptr],
            DeviceOp::GetDefaultQueue
            | DeviceOp::CreateUserEvent
            | DeviceOp::KernelWorkGroupSize
            | DeviceOp::KernelPreferredWorkGroupSizeMultiple => &[],
            DeviceOp::RetainEvent | DeviceOp::ReleaseEvent | DeviceOp::IsValidEvent => &[EVENT],
            DeviceOp::SetUserEventStatus => &[EVENT, Int(Type::I32)],
            DeviceOp::CaptureEventProfilingInfo => &[EVENT, Int(Type::I32), Ptr],
            DeviceOp::KernelSubGroupCount | DeviceOp::KernelMaxSubGroupSize => &[Ptr],
        }
    }

    /// The result type, if the operation gives one.
    pub fn result_type(self) -> Option<Type> {
        match self {
            DeviceOp::EnqueueKernel
            | DeviceOp::EnqueueMarker
            | DeviceOp::KernelWorkGroupSize
            | DeviceOp::KernelPreferredWorkGroupSizeMultiple
            | DeviceOp::KernelSubGroupCount
            | DeviceOp::KernelMaxSubGroupSize => Some(Type::I32),
            DeviceOp::GetDefaultQueue | DeviceOp::CreateUserEvent => Some(Type::I64),
            DeviceOp::IsValidEvent => Some(Type::I1),
            DeviceOp::RetainEvent
            | DeviceOp::ReleaseEvent
            | DeviceOp::SetUserEventStatus
            | DeviceOp::CaptureEventProfilingInfo => None,
        }
    }

    /// The operation's number in calls to the runtime
    /// ([`crate::abi::runtime_symbols::DEVICE_ENQUEUE`]): its index in
    /// [`DeviceOp::ALL`].
    pub fn code(self) -> u32 {
        DeviceOp::ALL
            .iter()
            .position(|&o| o == self)
            .expect("every operation is in ALL") as u32
    }

    /// The operation numbered `code` ([`DeviceOp::code`]).
    pub fn from_code(code: u32) -> Option<DeviceOp> {
        DeviceOp::ALL.get(code as usize).copied()
    }
}
